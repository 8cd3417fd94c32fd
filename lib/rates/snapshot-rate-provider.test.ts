import { describe, expect, it } from "vitest";
import { listPricingCurrencies } from "@/lib/catalogue/pricing-currencies";
import { parseDecimal } from "@/lib/domain/money/decimal";
import { SNAPSHOT_TAKEN_AT, SNAPSHOT_USD_PRICES, createSnapshotRateProvider } from "@/lib/rates/snapshot-rate-provider";

const PRICING_SYMBOLS = listPricingCurrencies().map((currency) => currency.symbol);

describe("snapshot rate provider", () => {
  it("is labelled as the offline snapshot", () => {
    const provider = createSnapshotRateProvider();
    expect(provider.name).toBe("snapshot");
    expect(provider.isOffline).toBe(true);
  });

  it("covers exactly the 38 pricing currencies", () => {
    expect(PRICING_SYMBOLS).toHaveLength(38);
    expect(Object.keys(SNAPSHOT_USD_PRICES).sort()).toEqual([...PRICING_SYMBOLS].sort());
  });

  it("answers every pricing symbol with a positive exact decimal", async () => {
    const prices = await createSnapshotRateProvider().fetchUsdPrices(PRICING_SYMBOLS);
    expect(prices.size).toBe(38);
    for (const symbol of PRICING_SYMBOLS) {
      const price = prices.get(symbol);
      expect(price?.symbol).toBe(symbol);
      expect(price?.source).toBe("offline-snapshot");
      expect(price?.asOf.toISOString()).toBe(SNAPSHOT_TAKEN_AT.toISOString());
      const parsed = parseDecimal(price?.usd ?? "");
      expect(parsed !== null && parsed.digits > 0n).toBe(true);
      // Canonical plain decimal: no exponent, no trailing zeros.
      expect(price?.usd).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
    }
  });

  it.each([
    ["USD", "1"],
    ["USDT", "1"],
    ["USDC", "1"],
    ["DAI", "1"],
    ["EUR", "1.08"],
    ["JPY", "0.0067"],
  ])("%s is %s USD", async (symbol, usd) => {
    const prices = await createSnapshotRateProvider().fetchUsdPrices([symbol]);
    expect(prices.get(symbol)?.usd).toBe(usd);
  });

  it("leaves unknown and non-canonical symbols out", async () => {
    const prices = await createSnapshotRateProvider().fetchUsdPrices(["KZT", "btc", "MATIC", "constructor", "__proto__", "BTC"]);
    expect([...prices.keys()]).toEqual(["BTC"]);
  });

  it("hands out copies of the snapshot time", async () => {
    const provider = createSnapshotRateProvider();
    const first = await provider.fetchUsdPrices(["BTC"]);
    first.get("BTC")?.asOf.setTime(0);
    const second = await provider.fetchUsdPrices(["BTC"]);
    expect(second.get("BTC")?.asOf.getTime()).toBe(SNAPSHOT_TAKEN_AT.getTime());
  });
});
