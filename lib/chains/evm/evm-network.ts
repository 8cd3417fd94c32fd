import { findNetwork, listNetworks, listSettlementAssets, type NetworkId } from "@/lib/catalogue";
import { normalizeEvmAddress } from "@/lib/chains/addresses/evm-address";
import { ChainError } from "@/lib/chains/types";

/** One token the EVM family watches and sends on a network. */
export interface EvmToken {
  /** Catalogue symbol, e.g. "USDT". */
  readonly symbol: string;
  /** EIP-55 checksummed contract address. */
  readonly contract: string;
  readonly decimals: number;
}

/** What the EVM adapter and sender need to know about one catalogue network. */
export interface EvmNetwork {
  readonly id: NetworkId;
  /** Symbol of the native coin (ETH on the L2s, BNB, POL, AVAX). */
  readonly nativeSymbol: string;
  /** The catalogue's EIP-155 chain id (mainnet); a test node reports its own. */
  readonly catalogueChainId: number;
  readonly tokens: readonly EvmToken[];
}

/**
 * Resolves an EVM network of the catalogue with its tokens. `tokenOverrides` replaces catalogue
 * contracts by symbol (a token deployed on a test node); only the network's catalogue symbols may
 * be overridden, because the decimals come from the catalogue.
 */
export function resolveEvmNetwork(network: string, tokenOverrides: Readonly<Record<string, string>> = {}): EvmNetwork {
  const found = findNetwork(network);
  if (!found || found.family !== "evm" || found.evmChainId === undefined) {
    throw new ChainError(`${network} is not an EVM network of the catalogue`, { retryable: false });
  }
  const catalogueTokens = listSettlementAssets().filter((asset) => asset.network === found.id && asset.kind === "token");
  for (const symbol of Object.keys(tokenOverrides)) {
    if (!catalogueTokens.some((asset) => asset.symbol === symbol)) {
      throw new ChainError(`${symbol} is not a token of ${found.id} in the catalogue`, { retryable: false });
    }
  }
  const tokens = catalogueTokens.map((asset): EvmToken => {
    const text = tokenOverrides[asset.symbol] ?? asset.contract ?? "";
    // Lower case or a valid EIP-55 checksum; a mixed-case typo is refused.
    const contract = normalizeEvmAddress(text);
    if (!contract) throw new ChainError(`contract of ${asset.symbol} on ${found.id} is not an EVM address`, { retryable: false });
    return { symbol: asset.symbol, contract, decimals: asset.decimals };
  });
  const contracts = new Set(tokens.map((token) => token.contract));
  if (contracts.size !== tokens.length) throw new ChainError(`two tokens of ${found.id} share a contract`, { retryable: false });
  return { id: found.id, nativeSymbol: found.nativeSymbol, catalogueChainId: found.evmChainId, tokens };
}

/** Chain ids of the catalogue's production EVM networks, to catch an endpoint configured for the wrong network. */
const CATALOGUE_CHAIN_IDS: ReadonlyMap<number, NetworkId> = new Map(
  listNetworks().flatMap((network) => (network.evmChainId === undefined ? [] : [[network.evmChainId, network.id] as const])),
);

/**
 * Checks the chain id a node reports for a network. spec: operator contract §3 — a real adapter
 * works with the chain its node reports, so test nodes (anvil 31337, testnets) are accepted for any
 * network; but a node of ANOTHER catalogue mainnet (RPC_BSC pointing at Ethereum) is refused, since
 * signing for it would pay out in the wrong coin. `expectedChainId`, when set, must match exactly.
 */
export function checkEvmChainId(network: EvmNetwork, reportedChainId: number, expectedChainId?: number): void {
  if (expectedChainId !== undefined && reportedChainId !== expectedChainId) {
    throw new ChainError(`the ${network.id} node reports chain id ${reportedChainId}, expected ${expectedChainId}`, { retryable: false });
  }
  const owner = CATALOGUE_CHAIN_IDS.get(reportedChainId);
  if (owner !== undefined && owner !== network.id) {
    throw new ChainError(`the ${network.id} endpoint serves chain id ${reportedChainId}, which is ${owner}`, { retryable: false });
  }
}

/** The asset a symbol names on this network: the native coin or one of its tokens; null otherwise. */
export function findEvmAsset(network: EvmNetwork, symbol: string): { kind: "native" } | { kind: "token"; token: EvmToken } | null {
  if (symbol === network.nativeSymbol) return { kind: "native" };
  const token = network.tokens.find((candidate) => candidate.symbol === symbol);
  return token ? { kind: "token", token } : null;
}
