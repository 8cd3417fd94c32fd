import { findNetwork, listSettlementAssets } from "@/lib/catalogue";
import { ChainError } from "@/lib/chains/types";
import { tronAddressToHex } from "@/lib/chains/tron/tron-encoding";

/** One TRC-20 token the Tron family watches and sends. */
export interface TronToken {
  /** Catalogue symbol, e.g. "USDT". */
  readonly symbol: string;
  /** Base58 contract address (`T…`). */
  readonly contract: string;
  /** The same address as the node writes it with `visible: false` (`41…`, lower case). */
  readonly contractHex: string;
  readonly decimals: number;
}

export interface TronNetwork {
  readonly id: "tron";
  /** "TRX". */
  readonly nativeSymbol: string;
  readonly tokens: readonly TronToken[];
}

/**
 * The catalogue's Tron network with its tokens. `tokenOverrides` replaces contracts by symbol (a
 * token deployed on Nile or a private chain); only catalogue symbols may be overridden, because
 * the decimals come from the catalogue.
 */
export function resolveTronNetwork(tokenOverrides: Readonly<Record<string, string>> = {}): TronNetwork {
  const network = findNetwork("tron");
  if (!network || network.family !== "tron") throw new ChainError("the catalogue has no tron network", { retryable: false });
  const catalogueTokens = listSettlementAssets().filter((asset) => asset.network === "tron" && asset.kind === "token");
  for (const symbol of Object.keys(tokenOverrides)) {
    if (!catalogueTokens.some((asset) => asset.symbol === symbol)) {
      throw new ChainError(`${symbol} is not a token of tron in the catalogue`, { retryable: false });
    }
  }
  const tokens = catalogueTokens.map((asset): TronToken => {
    const contract = tokenOverrides[asset.symbol] ?? asset.contract ?? "";
    const contractHex = tronAddressToHex(contract);
    if (!contractHex) throw new ChainError(`contract of ${asset.symbol} on tron is not a Tron address`, { retryable: false });
    return { symbol: asset.symbol, contract, contractHex, decimals: asset.decimals };
  });
  if (new Set(tokens.map((token) => token.contractHex)).size !== tokens.length) {
    throw new ChainError("two tokens of tron share a contract", { retryable: false });
  }
  return { id: "tron", nativeSymbol: network.nativeSymbol, tokens };
}
