import { CONFIRMATION_POLICIES } from "@/lib/catalogue/confirmation-policies";
import type { NetworkId, SettlementAsset, SettlementSymbol } from "@/lib/catalogue/types";

/**
 * Settlement symbols with their canonical decimals, in catalogue order. These are the `decimals` of
 * `currencies[]` in `GET /v1/currencies`; the on-chain decimals per network live on each asset.
 */
export const SETTLEMENT_SYMBOLS: readonly SettlementSymbol[] = [
  { symbol: "BTC", decimals: 8 },
  { symbol: "LTC", decimals: 8 },
  { symbol: "DOGE", decimals: 8 },
  { symbol: "ETH", decimals: 18 },
  { symbol: "BNB", decimals: 18 },
  { symbol: "POL", decimals: 18 },
  { symbol: "AVAX", decimals: 18 },
  { symbol: "TRX", decimals: 6 },
  { symbol: "SOL", decimals: 9 },
  { symbol: "TON", decimals: 9 },
  // Circle and Tether issue both with 6 decimals; the Binance-Peg BSC tokens use 18 on chain.
  { symbol: "USDT", decimals: 6 },
  { symbol: "USDC", decimals: 6 },
  { symbol: "DAI", decimals: 18 },
  { symbol: "WBTC", decimals: 8 },
  { symbol: "WETH", decimals: 18 },
];

/**
 * Every (symbol, network) pair that can be settled, grouped by symbol in `SETTLEMENT_SYMBOLS` order.
 * Contracts and decimals are exactly those of shared/spec/networks.md §6 (WBTC and WETH: the
 * canonical Ethereum mainnet contracts).
 */
export const SETTLEMENT_ASSETS: readonly SettlementAsset[] = [
  native("BTC", "bitcoin", 8),
  native("LTC", "litecoin", 8),
  native("DOGE", "dogecoin", 8),
  native("ETH", "ethereum", 18),
  native("ETH", "arbitrum", 18),
  native("ETH", "base", 18),
  native("ETH", "optimism", 18),
  native("BNB", "bsc", 18),
  native("POL", "polygon", 18),
  native("AVAX", "avalanche", 18),
  native("TRX", "tron", 6),
  native("SOL", "solana", 9),
  native("TON", "ton", 9),

  token("USDT", "ethereum", "0xdAC17F958D2ee523a2206206994597C13D831ec7", 6),
  // Binance-Peg "BSC-USD", not issued by Tether; 18 decimals on chain.
  token("USDT", "bsc", "0x55d398326f99059fF775485246999027B3197955", 18),
  token("USDT", "polygon", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6),
  // USDT0 (LayerZero OFT backed by USDT on Ethereum), listed under USDT; formerly the bridged USDT.
  token("USDT", "arbitrum", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", 6),
  // USDT0 (OFT); the legacy bridged USDT at 0x94b0…8e58 is deliberately not accepted.
  token("USDT", "optimism", "0x01bFF41798a0BcF287b996046Ca68b395DbC1071", 6),
  token("USDT", "avalanche", "0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7", 6),
  token("USDT", "tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", 6),
  token("USDT", "solana", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", 6),
  // Jetton master of USD₮; deposits are accepted only from jetton wallets derived from it.
  token("USDT", "ton", "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs", 6),

  token("USDC", "ethereum", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6),
  // Binance-Peg USD Coin, issued by Binance, not Circle; 18 decimals on chain.
  token("USDC", "bsc", "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18),
  // Native Circle USDC; bridged USDC.e is not accepted here or on arbitrum/optimism.
  token("USDC", "polygon", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6),
  token("USDC", "arbitrum", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6),
  token("USDC", "base", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6),
  token("USDC", "optimism", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", 6),
  token("USDC", "avalanche", "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", 6),
  token("USDC", "solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", 6),

  token("DAI", "ethereum", "0x6B175474E89094C44Da98b954EedeAC495271d0F", 18),
  token("WBTC", "ethereum", "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599", 8),
  token("WETH", "ethereum", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", 18),
];

const SETTLEMENT_SYMBOLS_BY_SYMBOL: ReadonlyMap<string, SettlementSymbol> = new Map(
  SETTLEMENT_SYMBOLS.map((entry) => [entry.symbol, entry]),
);

const SETTLEMENT_ASSETS_BY_KEY: ReadonlyMap<string, SettlementAsset> = new Map(
  SETTLEMENT_ASSETS.map((asset) => [assetKey(asset.symbol, asset.network), asset]),
);

/** Lists every settlement asset (one entry per symbol and network), grouped by symbol. */
export function listSettlementAssets(): readonly SettlementAsset[] {
  return SETTLEMENT_ASSETS;
}

/**
 * Finds the asset for an exact upper-case symbol and lower-case network id (`"USDT"`, `"tron"`);
 * returns null when that pair is not settled. Normalise user input first.
 */
export function findSettlementAsset(symbol: string, network: string): SettlementAsset | null {
  return SETTLEMENT_ASSETS_BY_KEY.get(assetKey(symbol, network)) ?? null;
}

/** Lists the ids of the networks a symbol can be settled on, in catalogue order; empty for unknown symbols. */
export function listNetworksOfSymbol(symbol: string): NetworkId[] {
  return SETTLEMENT_ASSETS.filter((asset) => asset.symbol === symbol).map((asset) => asset.network);
}

/** Tells whether an exact upper-case symbol is a settlement currency (crypto on at least one network). */
export function isSettlementSymbol(symbol: string): boolean {
  return SETTLEMENT_SYMBOLS_BY_SYMBOL.has(symbol);
}

/** Lists the settlement symbols with their canonical decimals, in catalogue order. */
export function listSettlementSymbols(): readonly SettlementSymbol[] {
  return SETTLEMENT_SYMBOLS;
}

/** Finds a settlement symbol and its canonical decimals; returns null for unknown or fiat symbols. */
export function findSettlementSymbol(symbol: string): SettlementSymbol | null {
  return SETTLEMENT_SYMBOLS_BY_SYMBOL.get(symbol) ?? null;
}

function native(symbol: string, network: NetworkId, decimals: number): SettlementAsset {
  return { symbol, network, kind: "native", decimals, confirmationPolicy: CONFIRMATION_POLICIES[network] };
}

function token(symbol: string, network: NetworkId, contract: string, decimals: number): SettlementAsset {
  return { symbol, network, kind: "token", contract, decimals, confirmationPolicy: CONFIRMATION_POLICIES[network] };
}

function assetKey(symbol: string, network: string): string {
  // "/" appears in neither symbols nor network ids, so the key is unambiguous.
  return `${symbol}/${network}`;
}
