import type { Translate } from "@/lib/i18n/translator";
import type { HostedNetworkInfo } from "@/lib/services/hosted/page-data";

/** "on Tron (TRC-20)" for a token, "on Ethereum" for a network's own coin, in the page's language. */
export function describeNetwork(t: Translate, networks: Record<string, HostedNetworkInfo>, network: string, kind: "native" | "token" | null): string {
  const info = networks[network];
  const name = info?.name ?? network;
  return kind === "token" && info?.tokenStandard ? t("common.onNetworkWithStandard", { network: name, standard: info.tokenStandard }) : t("common.onNetwork", { network: name });
}

/** "Tron (TRC-20)": the network and token standard without the preposition, for labels. */
export function nameNetwork(networks: Record<string, HostedNetworkInfo>, network: string, kind: "native" | "token" | null): string {
  const info = networks[network];
  const name = info?.name ?? network;
  return kind === "token" && info?.tokenStandard ? `${name} (${info.tokenStandard})` : name;
}
