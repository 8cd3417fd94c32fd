import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createRateProviderFromConfig, isRateProviderName } from "@/lib/rates/create-rate-provider-from-config";

const RECORDED_BODY = readFileSync(new URL("./testing/coinbase-exchange-rates-usd.json", import.meta.url), "utf8");

describe("createRateProviderFromConfig", () => {
  it("snapshot is the offline table and never fetches", async () => {
    let calls = 0;
    const countingFetch: typeof fetch = async () => {
      calls += 1;
      return new Response(RECORDED_BODY);
    };
    const provider = createRateProviderFromConfig("snapshot", countingFetch);
    expect([provider.name, provider.isOffline]).toEqual(["snapshot", true]);
    expect((await provider.fetchUsdPrices(["EUR"])).get("EUR")?.usd).toBe("1.08");
    expect(calls).toBe(0);
  });

  it("coinbase is live and cached", async () => {
    let calls = 0;
    let nowMs = 0;
    const countingFetch: typeof fetch = async () => {
      calls += 1;
      return new Response(RECORDED_BODY);
    };
    const provider = createRateProviderFromConfig("coinbase", countingFetch, { now: () => nowMs, ttlMs: 60_000 });
    expect([provider.name, provider.isOffline]).toEqual(["coinbase", false]);
    expect((await provider.fetchUsdPrices(["BTC"])).get("BTC")?.usd).toBe("104222.889286314957028243");
    nowMs += 59_999;
    await provider.fetchUsdPrices(["BTC"]);
    expect(calls).toBe(1);
    nowMs += 1;
    await provider.fetchUsdPrices(["BTC"]);
    expect(calls).toBe(2);
  });

  it.each([
    ["snapshot", true],
    ["coinbase", true],
    ["Coinbase", false],
    ["", false],
    ["binance", false],
  ])("isRateProviderName(%j) is %s", (name, expected) => {
    expect(isRateProviderName(name)).toBe(expected);
  });
});
