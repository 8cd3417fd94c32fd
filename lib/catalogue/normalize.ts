/**
 * Normalisers for user input. Catalogue lookups are exact (upper-case symbols, lower-case network
 * ids); callers that accept "usdt" or "BSC" from a request pass the value through these first.
 */

/** Upper-cases a currency symbol: `normalizeSymbol("usdt")` → `"USDT"`. */
export function normalizeSymbol(symbol: string): string {
  return symbol.toUpperCase();
}

/** Lower-cases a network id: `normalizeNetworkId("BSC")` → `"bsc"`. */
export function normalizeNetworkId(networkId: string): string {
  return networkId.toLowerCase();
}
