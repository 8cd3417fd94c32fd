import type { HostedNetworkInfo } from "@/lib/services/hosted/page-data";
import { listNetworks, type NetworkFamily, type NetworkId } from "@/lib/catalogue";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";

/** The token standard buyers know a family's tokens by; BNB Smart Chain calls its ERC-20 tokens BEP-20. */
const TOKEN_STANDARD_BY_FAMILY: Record<NetworkFamily, string> = { evm: "ERC-20", tron: "TRC-20", solana: "SPL", ton: "Jetton", utxo: "" };
const TOKEN_STANDARD_BY_NETWORK: Partial<Record<NetworkId, string>> = { bsc: "BEP-20" };

/** How the public pages name each network, and which ones a sandbox chain serves here. */
export function describeHostedNetworks(config: Parameters<typeof resolveNetworkStatus>[1]): {
  networks: Record<string, HostedNetworkInfo>;
  sandboxNetworks: string[];
} {
  const networks: Record<string, HostedNetworkInfo> = {};
  const sandboxNetworks: string[] = [];
  for (const network of listNetworks()) {
    networks[network.id] = { name: network.displayName, tokenStandard: TOKEN_STANDARD_BY_NETWORK[network.id] ?? TOKEN_STANDARD_BY_FAMILY[network.family] };
    if (config.sandbox && resolveNetworkStatus(network, config).source === "sandbox") sandboxNetworks.push(network.id);
  }
  return { networks, sandboxNetworks };
}
