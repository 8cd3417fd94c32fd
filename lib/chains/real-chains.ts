import type { GatewayConfig } from "@/lib/config/env";
import { listNetworks, type NetworkFamily, type NetworkId } from "@/lib/catalogue";
import { log } from "@/lib/log";
import type { AddressChain } from "./addresses";
import type { ChainAdapter, ChainSender } from "./types";

/** What a node says it is. */
export interface ChainIdentity {
  /** Address formats to use: the node's chain. */
  chain: AddressChain;
  /** True for a production chain (EVM mainnet id, UTXO `main`, Solana/TON mainnet). */
  isProduction: boolean;
  /** For people: "chain id 31337", "regtest", … */
  label: string;
}

/** One network served by a real node. */
export interface RealChain {
  adapter: ChainAdapter;
  sender: ChainSender | null;
  identify(): Promise<ChainIdentity>;
  /**
   * What the node lacks for the service to follow its own transactions safely (e.g. a UTXO node
   * without a transaction index), or null when it has all it needs.
   */
  findMissingRequirement?(): Promise<string | null>;
}

export interface RealChainInput {
  network: NetworkId;
  rpcUrl: string;
  /** Token contract overrides (symbol → contract), e.g. a token deployed on a local test node. */
  tokens: Record<string, string>;
  /**
   * The service's deposit addresses on this network that are still watched: Solana and TON
   * nodes cannot be asked for "every transfer in these blocks", only for an account's history.
   */
  watchedAddresses(): Promise<string[]>;
}

/** Where the watched deposit addresses of a network come from (the service's database). */
export type WatchedAddressSource = (network: string) => Promise<string[]>;

/** Builds a family's chain; may load the family's libraries on first use (a deployment without that family never does). */
export type RealChainFactory = (input: RealChainInput) => RealChain | Promise<RealChain>;

const factories = new Map<NetworkFamily, RealChainFactory>();

/** Families register their factory here (lib/chains/real-chain-families.ts). */
export function registerRealChainFamily(family: NetworkFamily, factory: RealChainFactory): void {
  factories.set(family, factory);
}

export function hasRealChainFamily(family: NetworkFamily): boolean {
  return factories.has(family);
}

/** TOKEN_<NETWORK>_<SYMBOL>=<contract> overrides, for networks pointed at a local test node. */
export function tokenOverrides(env: Readonly<Record<string, string | undefined>>, network: string): Record<string, string> {
  const prefix = `TOKEN_${network.toUpperCase()}_`;
  const tokens: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (name.startsWith(prefix) && value) tokens[name.slice(prefix.length)] = value;
  return tokens;
}

export type RealChainState = { kind: "ready"; chain: RealChain; identity: ChainIdentity } | { kind: "refused"; reason: string };

const globalForChains = globalThis as unknown as { gatewayRealChains?: Map<string, RealChainState> };
const states = (globalForChains.gatewayRealChains ??= new Map<string, RealChainState>());

/** The verified state of a network's real node, if it was checked. */
export function getRealChainState(network: string): RealChainState | undefined {
  return states.get(network);
}

/**
 * Connects to every configured node and asks what chain it is. spec: operator contract §3 —
 * with sandbox mode on, a node that reports a production chain is refused (sandbox money must
 * never reach a real chain); the refusal is logged and shown by /healthz.
 */
export async function verifyRealChains(
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">,
  watchedAddresses: WatchedAddressSource,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<void> {
  for (const network of listNetworks()) {
    const rpcUrl = config.rpcEndpoints[network.id];
    if (!rpcUrl) continue;
    const factory = factories.get(network.family);
    if (!factory) continue;
    try {
      const chain = await factory({ network: network.id, rpcUrl, tokens: tokenOverrides(env, network.id), watchedAddresses: () => watchedAddresses(network.id) });
      const identity = await chain.identify();
      if (config.sandbox && identity.isProduction) {
        const reason = `refused: the node reports a production chain (${identity.label}) while sandbox mode is on`;
        log.error("real chain refused in sandbox mode", { network: network.id, chain: identity.label });
        states.set(network.id, { kind: "refused", reason });
      } else {
        const missing = (await chain.findMissingRequirement?.()) ?? null;
        if (missing) {
          log.error("real chain refused: the node lacks what the service needs", { network: network.id, missing });
          states.set(network.id, { kind: "refused", reason: `refused: ${missing}` });
        } else {
          states.set(network.id, { kind: "ready", chain, identity });
          log.info("real chain connected", { network: network.id, chain: identity.label });
        }
      }
    } catch (error) {
      states.set(network.id, { kind: "refused", reason: `unreachable: ${error instanceof Error ? error.message : "no answer"}` });
      log.warn("real chain unreachable; retried at the next check", { network: network.id, error });
    }
  }
}

/** Forgets verified nodes (tests that point a network elsewhere). */
export function resetRealChains(): void {
  states.clear();
}
