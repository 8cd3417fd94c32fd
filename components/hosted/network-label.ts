import type { HostedNetworkInfo } from "./types";

/** "on Tron (TRC-20)" for a token, "on Ethereum" for a network's own coin. */
export function describeNetwork(networks: Record<string, HostedNetworkInfo>, network: string, kind: "native" | "token" | null): string {
  const info = networks[network];
  const name = info?.name ?? network;
  return kind === "token" && info?.tokenStandard ? `on ${name} (${info.tokenStandard})` : `on ${name}`;
}
