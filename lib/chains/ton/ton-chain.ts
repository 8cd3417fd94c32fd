import type { AddressChain } from "@/lib/chains/addresses";
import type { FetchFunction } from "@/lib/chains/rpc-endpoints";
import type { ChainAdapter, ChainSender } from "@/lib/chains/types";
import { createTonHttpAccess } from "@/lib/chains/ton/ton-client-access";
import { createTonAdapter } from "@/lib/chains/ton/ton-adapter";
import { createTonSender } from "@/lib/chains/ton/ton-sender";

export interface TonHttpChainInput {
  /** toncenter-compatible v2 endpoint, e.g. `https://toncenter.com/api/v2/jsonRPC`. */
  endpoint: string;
  /** The fetch requests go through (the network's endpoint pool, with failover); the global fetch when unset. */
  fetch?: FetchFunction;
  apiKey?: string;
  /** Symbol → jetton master overrides (TOKEN_TON_<SYMBOL>). */
  jettons?: Readonly<Record<string, string>>;
  /** "test" for testnet: accepts and prints testnet-only addresses. Defaults to "main". */
  chain?: AddressChain;
  /** The service's TON deposit addresses; see `TonAdapterOptions.watchedAddresses`. */
  watchedAddresses: () => Promise<string[]>;
  timeoutMs?: number;
}

/** Adapter and sender over one TON HTTP API endpoint. */
export function createTonHttpChain(input: TonHttpChainInput): { adapter: ChainAdapter; sender: ChainSender } {
  const access = createTonHttpAccess(input.endpoint, input.apiKey, input.fetch);
  return {
    adapter: createTonAdapter({ access, watchedAddresses: input.watchedAddresses, jettons: input.jettons, chain: input.chain, timeoutMs: input.timeoutMs }),
    sender: createTonSender({ access, jettons: input.jettons, chain: input.chain, timeoutMs: input.timeoutMs }),
  };
}
