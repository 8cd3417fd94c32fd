import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "./addresses";
import { resolveNetworkStatus } from "./network-sources";
import { getRealChainState } from "./real-chains";
import { createSandboxAdapter } from "./sandbox/sandbox-chain";
import { createSandboxSender } from "./sandbox/sandbox-sender";
import type { ChainAdapter, ChainSender } from "./types";

/** The chain serving a network in this deployment, or null when none does. */
export function getChainAdapter(db: Db, config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">, network: string): ChainAdapter | null {
  const found = findNetwork(network);
  if (!found) return null;
  const status = resolveNetworkStatus(found, config);
  if (status.source === "sandbox") return createSandboxAdapter(db, found.id as NetworkId);
  if (status.source === "rpc") {
    const state = getRealChainState(found.id);
    return state?.kind === "ready" ? state.chain.adapter : null;
  }
  return null;
}

/** The sender of a network: its sandbox chain's, or its real node's; null when none serves it. */
export function getChainSender(db: Db, config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">, network: string): ChainSender | null {
  const found = findNetwork(network);
  if (!found) return null;
  const source = resolveNetworkStatus(found, config).source;
  if (source === "sandbox") return createSandboxSender(db, found.id as NetworkId);
  if (source !== "rpc") return null;
  const state = getRealChainState(found.id);
  return state?.kind === "ready" ? state.chain.sender : null;
}

/** Address formats for a network: the real node's chain, or mainnet formats on sandbox chains. */
export function addressChainOf(config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">, network: string): AddressChain {
  const found = findNetwork(network);
  if (!found || resolveNetworkStatus(found, config).source !== "rpc") return "main";
  const state = getRealChainState(found.id);
  return state?.kind === "ready" ? state.identity.chain : "main";
}
