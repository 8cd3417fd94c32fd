import type { HostedNetworkInfo } from "@/lib/services/hosted/page-data";
import { listNetworks } from "@/lib/catalogue";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";

/** How the public pages name each network, and which ones a sandbox chain serves here. */
export function describeHostedNetworks(config: Parameters<typeof resolveNetworkStatus>[1]): {
  networks: Record<string, HostedNetworkInfo>;
  sandboxNetworks: string[];
} {
  const networks: Record<string, HostedNetworkInfo> = {};
  const sandboxNetworks: string[] = [];
  for (const network of listNetworks()) {
    networks[network.id] = { name: network.displayName, tokenStandard: network.tokenStandard };
    if (config.sandbox && resolveNetworkStatus(network, config).source === "sandbox") sandboxNetworks.push(network.id);
  }
  return { networks, sandboxNetworks };
}
