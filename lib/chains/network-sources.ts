import type { GatewayConfig } from "@/lib/config/env";
import { findNetwork, listNetworks, type Network } from "@/lib/catalogue";
import { getRealChainState, hasRealChainFamily } from "./real-chains";
import "./real-chain-families";

/** Where a network's chain comes from in this deployment. */
export type NetworkSource =
  /** The simulated sandbox chain of the operator contract. */
  | "sandbox"
  /** A real node or API at the configured RPC endpoint. */
  | "rpc"
  /** Neither: the network is in the catalogue but cannot be used here. */
  | "off";

export interface NetworkStatus {
  network: string;
  source: NetworkSource;
  /** The chain a real node reports ("chain id 31337", "regtest"). */
  chain?: string;
  /** Why a configured endpoint is not in use, when it is not. */
  detail?: string;
}

/**
 * spec: operator contract §3 — a network with an RPC endpoint uses its real adapter, sandbox or
 * not; without one it is a sandbox chain when sandbox mode is on, and unavailable otherwise.
 */
export function resolveNetworkStatus(network: Network, config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">): NetworkStatus {
  const endpoint = config.rpcEndpoints[network.id];
  if (endpoint) {
    if (!hasRealChainFamily(network.family)) {
      return { network: network.id, source: "off", detail: `RPC_${network.id.toUpperCase()} is set, but this build has no ${network.family} adapter` };
    }
    const state = getRealChainState(network.id);
    if (!state) return { network: network.id, source: "off", detail: "the node has not been checked yet" };
    if (state.kind === "refused") return { network: network.id, source: "off", detail: state.reason };
    return { network: network.id, source: "rpc", chain: state.identity.label };
  }
  return { network: network.id, source: config.sandbox ? "sandbox" : "off" };
}

export function listNetworkStatuses(config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">): NetworkStatus[] {
  return listNetworks().map((network) => resolveNetworkStatus(network, config));
}

/**
 * Deposits and payouts are possible exactly where a chain (sandbox or real) serves the network.
 * Each question resolves only the network asked about: invoice creation asks on every request.
 */
export function networkAvailability(config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">) {
  return (networkId: string) => {
    const network = findNetwork(networkId);
    const isServed = network !== null && resolveNetworkStatus(network, config).source !== "off";
    return { deposit: isServed, payout: isServed };
  };
}
