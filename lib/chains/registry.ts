import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { resolveNetworkStatus } from "./network-sources";
import { createSandboxAdapter } from "./sandbox/sandbox-chain";
import type { ChainAdapter } from "./types";

/** The chain serving a network in this deployment, or null when none does. */
export function getChainAdapter(db: Db, config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">, network: string): ChainAdapter | null {
  const found = findNetwork(network);
  if (!found) return null;
  const status = resolveNetworkStatus(found, config);
  if (status.source === "sandbox") return createSandboxAdapter(db, found.id as NetworkId);
  return null; // real adapters: see FAMILIES_WITH_REAL_ADAPTER
}
