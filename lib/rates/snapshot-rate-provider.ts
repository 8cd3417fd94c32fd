import type { RateProvider, UsdPrice } from "@/lib/rates/types";

/** When the offline snapshot below was written down. Prices in it are NOT live market data. */
export const SNAPSHOT_TAKEN_AT: Date = new Date("2026-06-01T00:00:00.000Z");

/** `source` of every price served from the snapshot. */
export const SNAPSHOT_SOURCE = "offline-snapshot";

/**
 * OFFLINE SNAPSHOT: a fixed table of USD prices for all 38 pricing currencies (price of 1 unit in USD),
 * so the gateway, its demos and its tests run with no network access. Coins are at plausible recent
 * levels, stablecoins at exactly 1, fiats at approximate reference rates. Do not settle real money at
 * these prices; configure a live source (`coinbase`) for that.
 */
export const SNAPSHOT_USD_PRICES: Readonly<Record<string, string>> = {
  // Coins.
  BTC: "104250",
  LTC: "88.4",
  DOGE: "0.1725",
  ETH: "3650",
  BNB: "655",
  POL: "0.235",
  AVAX: "22.8",
  TRX: "0.275",
  SOL: "165",
  TON: "3.15",
  USDT: "1",
  USDC: "1",
  DAI: "1",
  WBTC: "104100",
  WETH: "3650",
  // Fiats.
  USD: "1",
  EUR: "1.08",
  GBP: "1.27",
  RUB: "0.011",
  UAH: "0.0241",
  PLN: "0.252",
  CZK: "0.0435",
  TRY: "0.029",
  CNY: "0.138",
  INR: "0.0118",
  BRL: "0.18",
  CAD: "0.73",
  AUD: "0.66",
  CHF: "1.13",
  // Pegged at 3.6725 AED per USD.
  AED: "0.2723",
  ZAR: "0.0545",
  MXN: "0.052",
  IDR: "0.0000625",
  THB: "0.029",
  VND: "0.0000393",
  NGN: "0.00065",
  JPY: "0.0067",
  KRW: "0.00073",
};

const SNAPSHOT_PRICES_BY_SYMBOL: ReadonlyMap<string, string> = new Map(Object.entries(SNAPSHOT_USD_PRICES));

/** Creates the default rate provider: the fixed OFFLINE snapshot (`isOffline: true`, name "snapshot"). */
export function createSnapshotRateProvider(): RateProvider {
  return {
    name: "snapshot",
    isOffline: true,
    async fetchUsdPrices(symbols: readonly string[]): Promise<Map<string, UsdPrice>> {
      const prices = new Map<string, UsdPrice>();
      for (const symbol of symbols) {
        // A Map, not the record, so "constructor" or "__proto__" cannot hit Object.prototype.
        const usd = SNAPSHOT_PRICES_BY_SYMBOL.get(symbol);
        if (usd !== undefined) {
          // A fresh Date per price, so a caller mutating one cannot move the snapshot's time.
          prices.set(symbol, { symbol, usd, asOf: new Date(SNAPSHOT_TAKEN_AT.getTime()), source: SNAPSHOT_SOURCE });
        }
      }
      return prices;
    },
  };
}
