/** The USD price of one unit of a currency, as reported by a rate source. */
export interface UsdPrice {
  /** Upper-case symbol as in the catalogue, e.g. "BTC", "EUR". */
  readonly symbol: string;
  /** Price of 1 unit in USD as an exact decimal string, e.g. "96153.846153846153846154". Never a float. */
  readonly usd: string;
  /** When the source observed this price. */
  readonly asOf: Date;
  /** Which source produced it, e.g. "coinbase" or "offline-snapshot". */
  readonly source: string;
}

/** A source of USD prices. Every rate source (offline snapshot, public API, cache) implements this. */
export interface RateProvider {
  /** Short name, as used in configuration ("snapshot", "coinbase"). */
  readonly name: string;
  /** True when the prices are a fixed offline table, not market data; pages and health checks should say so. */
  readonly isOffline: boolean;
  /**
   * Fetches USD prices for the given upper-case symbols. Symbols the source does not know are absent
   * from the map (not an error). Failures of the source throw `RateSourceError`.
   */
  fetchUsdPrices(symbols: readonly string[]): Promise<Map<string, UsdPrice>>;
}
