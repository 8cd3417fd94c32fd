import { describe, expect, it } from "vitest";
import { fetchFiatPrices, listEstimateFiats, percentChange, toEstimateFiat } from "./fiat-estimate";
import { RateSourceError, type RateProvider } from "@/lib/rates";

function fixedRates(usd: Record<string, string>): RateProvider {
  const asOf = new Date("2026-11-02T08:00:00Z");
  return { name: "fixed", isOffline: false, fetchUsdPrices: async (symbols) => new Map(symbols.filter((symbol) => usd[symbol]).map((symbol) => [symbol, { symbol, usd: usd[symbol], asOf, source: "fixed" }])) };
}

describe("percentChange", () => {
  it.each([
    [150n, 120n, "25.0"],
    [120n, 150n, "-20.0"],
    [100n, 100n, "0.0"],
    [1n, 3n, "-66.7"],
    [2n, 3n, "-33.3"],
    [1000n, 3n, "33233.3"],
    [200n, 3n, "6566.7"],
    [0n, 5n, "-100.0"],
    [5n, 0n, null],
    [0n, 0n, null],
  ])("%s against %s is %s", (current, previous, expected) => {
    expect(percentChange(current, previous)).toBe(expected);
  });
});

describe("the estimate's fiat", () => {
  it("is one of the catalogue's fiats, USD by default", () => {
    expect(listEstimateFiats()).toContain("EUR");
    expect(listEstimateFiats()).not.toContain("BTC");
    expect(toEstimateFiat("eur")).toBe("EUR");
    expect(toEstimateFiat("BTC")).toBe("USD");
    expect(toEstimateFiat(undefined)).toBe("USD");
    expect(toEstimateFiat("<script>")).toBe("USD");
  });
});

describe("fetchFiatPrices", () => {
  it("converts exactly, rounding down to the fiat's cent, across coin decimals", async () => {
    const prices = await fetchFiatPrices({ rates: fixedRates({ EUR: "1.25", USDT: "1", BTC: "50000.5", ETH: "3000" }) }, "EUR", ["USDT", "BTC", "ETH", "DOGE"]);
    if (prices.status !== "ready") throw new Error(prices.reason);
    expect(prices.convert("USDT", 100_000_000n, 6)).toBe(8000n); // 100 USDT = 80.00 EUR
    expect(prices.convert("USDT", 12_499n, 6)).toBe(0n);
    expect(prices.convert("BTC", 1n, 8)).toBe(0n);
    expect(prices.convert("BTC", 100_000_000n, 8)).toBe(4_000_040n); // 50000.5 / 1.25 = 40000.40
    expect(prices.convert("ETH", 10n ** 18n + 1n, 18)).toBe(240_000n);
    expect(prices.convert("DOGE", 1n, 8)).toBeNull();
    expect(prices.asOf).toEqual(new Date("2026-11-02T08:00:00Z"));
  });

  it("says why there is no estimate: a source that fails, no price for the fiat, a fiat not in the catalogue", async () => {
    const failing: RateProvider = { name: "down", isOffline: false, fetchUsdPrices: async () => Promise.reject(new RateSourceError("down", { retryable: true, source: "down" })) };
    expect(await fetchFiatPrices({ rates: failing }, "EUR", ["USDT"])).toEqual({ status: "unavailable", fiat: "EUR", reason: "the rate source did not answer" });
    expect(await fetchFiatPrices({ rates: fixedRates({ USDT: "1" }) }, "EUR", ["USDT"])).toEqual({ status: "unavailable", fiat: "EUR", reason: "the rate source has no price for EUR" });
    expect((await fetchFiatPrices({ rates: fixedRates({ BTC: "1" }) }, "BTC", ["USDT"])).status).toBe("unavailable");
  });
});
