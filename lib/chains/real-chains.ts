import type { GatewayConfig } from "@/lib/config/env";
import { listNetworks, type NetworkFamily, type NetworkId } from "@/lib/catalogue";
import { log } from "@/lib/log";
import type { AddressChain } from "./addresses";
import { createRpcEndpointPool, type FetchFunction, type RpcEndpointPool } from "./rpc-endpoints";
import type { ChainAdapter, ChainSender, SentRecord } from "./types";

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
  /** The first configured endpoint: clients are built with it, and `fetch` routes their requests. */
  rpcUrl: string;
  /** Every request of the family's clients goes through it: failover across the network's endpoints. */
  fetch: FetchFunction;
  /** Token contract overrides (symbol → contract), e.g. a token deployed on a local test node. */
  tokens: Record<string, string>;
  /** The provider's API key, where the family's endpoints take one (TON_API_KEY for toncenter). */
  apiKey: string | undefined;
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

export type RealChainState = { kind: "ready"; chain: RealChain; identity: ChainIdentity } | { kind: "refused"; reason: string };

const globalForChains = globalThis as unknown as { gatewayRealChains?: Map<string, RealChainState>; gatewayRpcPools?: Map<string, RpcEndpointPool> };
const states = (globalForChains.gatewayRealChains ??= new Map<string, RealChainState>());
// Kept across re-verification, so an endpoint's health outlives the chain objects built over it.
const pools = (globalForChains.gatewayRpcPools ??= new Map<string, RpcEndpointPool>());

/** The network's endpoint pool, made once per list of URLs. */
function poolFor(network: string, urls: readonly string[]): RpcEndpointPool {
  const existing = pools.get(network);
  if (existing && existing.urls.join(" ") === urls.join(" ")) return existing;
  const pool = createRpcEndpointPool(network, urls);
  pools.set(network, pool);
  return pool;
}

/** The endpoint pools of the networks served by real nodes, for /metrics. */
export function listRpcEndpointPools(): RpcEndpointPool[] {
  return [...pools.values()];
}

/**
 * The sender with its fate-deciding reads disciplined: a transaction's state is read from one
 * backend, and a transfer is called dead only when a second backend (where configured) agrees.
 */
export function withEndpointDiscipline(sender: ChainSender, pool: RpcEndpointPool): ChainSender {
  if (pool.size < 2) return sender;
  return {
    ...sender,
    // A broadcast is not repeated on another backend within one call: the first may have taken
    // it, and another's refusal (lagging) would then be believed. The next pass asks the next one.
    broadcast: (signed) => pool.pinned(() => sender.broadcast(signed)),
    getTransaction: (txid, sent) => pool.pinned(() => sender.getTransaction(txid, sent)),
    ...(sender.readDelivered ? { readDelivered: (txid: string, sent: SentRecord, delivery: { toAddress: string; currency: string }) => pool.pinned(() => sender.readDelivered!(txid, sent, delivery)) } : {}),
    async canStillLand(signed, from) {
      let firstIndex: number | null = null;
      const canLand = await pool.pinned(() => {
        firstIndex = pool.pinnedIndex();
        return sender.canStillLand(signed, from);
      });
      if (canLand) return true;
      // Uncertain when the second cannot answer: the transfer waits and is asked about again.
      return pool.pinned(() => sender.canStillLand(signed, from), { avoid: firstIndex ?? undefined }).catch(() => true);
    },
  };
}

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
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "tokenContracts" | "tonApiKey">,
  watchedAddresses: WatchedAddressSource,
): Promise<void> {
  for (const network of listNetworks()) {
    const urls = config.rpcEndpoints[network.id];
    if (!urls) continue;
    const factory = factories.get(network.family);
    if (!factory) continue;
    try {
      const pool = poolFor(network.id, urls);
      const input: RealChainInput = { network: network.id, rpcUrl: pool.primaryUrl, fetch: pool.fetch, tokens: config.tokenContracts[network.id] ?? {}, apiKey: network.family === "ton" ? config.tonApiKey : undefined, watchedAddresses: () => watchedAddresses(network.id) };
      const built = await factory(input);
      const adapter: ChainAdapter = pool.size > 1 ? { ...built.adapter, withOneBackend: (work) => pool.pinned(work) } : built.adapter;
      const chain: RealChain = { ...built, adapter, sender: built.sender && withEndpointDiscipline(built.sender, pool) };
      const identity = await chain.identify();
      // Every endpoint of the list must serve the same chain and have what the service needs: a
      // secondary on another chain, or without a transaction index, would answer for the first
      // that a transfer is dead.
      const mismatch = pool.size > 1 ? ((await findEndpointOnAnotherChain(pool, factory, input, identity)) ?? (await findEndpointLacking(pool, chain))) : null;
      if (mismatch) {
        log.error("real chain refused: an endpoint of its list does not serve it as the first does", { network: network.id, mismatch });
        states.set(network.id, { kind: "refused", reason: `refused: ${mismatch}` });
      } else if (config.sandbox && identity.isProduction) {
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
      // The node's own error text stays in the log: /healthz is public and tells only the kind of trouble.
      states.set(network.id, { kind: "refused", reason: "unreachable: the node did not answer (the service log says why); retried every minute" });
      log.warn("real chain unreachable; retried at the next check", { network: network.id, error });
    }
  }
}

/**
 * The first endpoint after the first that reports another chain than the first did (`identity`),
 * each asked on its own through a client built for it alone (a client remembers its chain).
 */
async function findEndpointOnAnotherChain(pool: RpcEndpointPool, factory: RealChainFactory, input: RealChainInput, identity: ChainIdentity): Promise<string | null> {
  const labels = pool.health().map((health) => health.label);
  for (let index = 1; index < pool.size; index++) {
    const own = await factory({ ...input, rpcUrl: pool.urls[index] });
    const other = await pool.pinnedTo(index, () => own.identify()).catch(() => null); // checked again at the next verification
    if (other && other.label !== identity.label) return `endpoint ${labels[index]}: serves ${other.label}, endpoint ${labels[0]} serves ${identity.label}`;
  }
  return null;
}

/** The first endpoint of the pool that lacks what the service needs (a UTXO node's transaction index), asked on its own; null when none does. */
async function findEndpointLacking(pool: RpcEndpointPool, chain: RealChain): Promise<string | null> {
  if (!chain.findMissingRequirement) return null;
  const labels = pool.health().map((health) => health.label);
  for (let index = 0; index < pool.size; index++) {
    const problem = await pool
      .pinnedTo(index, async () => {
        const missing = await chain.findMissingRequirement!();
        return missing ? `endpoint ${labels[index]}: ${missing}` : null;
      })
      .catch(() => null); // one that does not answer now is checked at the next verification, and fails over meanwhile
    if (problem) return problem;
  }
  return null;
}

/** Forgets verified nodes (tests that point a network elsewhere). */
export function resetRealChains(): void {
  states.clear();
  pools.clear();
}
