import { Connection } from "@solana/web3.js";
import type { AddressChain } from "@/lib/chains/addresses";
import type { FetchFunction } from "@/lib/chains/rpc-endpoints";
import type { ChainAdapter, ChainSender } from "@/lib/chains/types";
import { createConnectionAccess } from "@/lib/chains/solana/connection-access";
import { createSolanaAdapter } from "@/lib/chains/solana/solana-adapter";
import { createSolanaSender } from "@/lib/chains/solana/solana-sender";

export interface SolanaRpcChainInput {
  rpcUrl: string;
  /** The fetch requests go through (the network's endpoint pool, with failover); the global fetch when unset. */
  fetch?: FetchFunction;
  /** Symbol → mint overrides (TOKEN_SOLANA_<SYMBOL>), for a local test validator. */
  mints?: Readonly<Record<string, string>>;
  /** The service's Solana deposit owners; see `SolanaAdapterOptions.watchedOwners`. */
  watchedOwners: () => Promise<string[]>;
  timeoutMs?: number;
}

/** What cluster a node serves, in the shape of the real-chain registry's identity. */
export interface SolanaClusterIdentity {
  chain: AddressChain;
  isProduction: boolean;
  label: string;
}

/** Genesis hashes of the public clusters; any other node is a local validator. */
const PUBLIC_CLUSTERS: Readonly<Record<string, SolanaClusterIdentity>> = {
  "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d": { chain: "main", isProduction: true, label: "mainnet-beta" },
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: { chain: "test", isProduction: false, label: "devnet" },
  "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY": { chain: "test", isProduction: false, label: "testnet" },
};

/** The cluster a genesis hash belongs to. Solana addresses look the same on every cluster. */
export function identifySolanaCluster(genesisHash: string): SolanaClusterIdentity {
  return PUBLIC_CLUSTERS[genesisHash] ?? { chain: "regtest", isProduction: false, label: `local validator (genesis ${genesisHash})` };
}

/** Adapter and sender over one JSON-RPC node, sharing its connection. */
export function createSolanaRpcChain(input: SolanaRpcChainInput): { adapter: ChainAdapter; sender: ChainSender; identify(): Promise<SolanaClusterIdentity> } {
  const connection = new Connection(input.rpcUrl, { commitment: "confirmed", fetch: input.fetch });
  const access = createConnectionAccess(connection);
  // web3.js retries a rate-limited (429) request for seconds; a balance read wants its answer now.
  const balanceAccess = createConnectionAccess(new Connection(input.rpcUrl, { commitment: "confirmed", disableRetryOnRateLimit: true, fetch: input.fetch }));
  return {
    adapter: createSolanaAdapter({ access, watchedOwners: input.watchedOwners, mints: input.mints, timeoutMs: input.timeoutMs }),
    sender: createSolanaSender({ access, balanceAccess, mints: input.mints, timeoutMs: input.timeoutMs }),
    async identify() {
      return identifySolanaCluster(await connection.getGenesisHash());
    },
  };
}
