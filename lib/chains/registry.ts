import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { explorerUrl, findNetwork, type NetworkId } from "@/lib/catalogue";
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

/** Links to a network's public explorer: each answers a page's URL, or null. */
export interface ExplorerLinks {
  transaction(txid: string): string | null;
  address(address: string): string | null;
}

const NO_EXPLORER: ExplorerLinks = { transaction: () => null, address: () => null };

/**
 * The catalogue's explorer for a network, only where a real mainnet node serves it: a sandbox
 * chain's or a test/regtest node's transactions and addresses are on no public explorer.
 */
export function explorerLinksOf(config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">, network: string | null | undefined): ExplorerLinks {
  const found = network ? findNetwork(network) : null;
  if (!found || resolveNetworkStatus(found, config).source !== "rpc") return NO_EXPLORER;
  const state = getRealChainState(found.id);
  if (state?.kind !== "ready" || !state.identity.isProduction) return NO_EXPLORER;
  return { transaction: (txid) => explorerUrl(found.id, "transaction", txid), address: (address) => explorerUrl(found.id, "address", address) };
}

/** Address formats for a network: the real node's chain, or mainnet formats on sandbox chains. */
export function addressChainOf(config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">, network: string): AddressChain {
  const found = findNetwork(network);
  if (!found || resolveNetworkStatus(found, config).source !== "rpc") return "main";
  const state = getRealChainState(found.id);
  return state?.kind === "ready" ? state.identity.chain : "main";
}
