import { describe, expect, it } from "vitest";
import { createCachedRateProvider } from "@/lib/rates/cached-rate-provider";
import { RateSourceError } from "@/lib/rates/rate-source-error";
import type { RateProvider, UsdPrice } from "@/lib/rates/types";

const TTL_MS = 60_000;
const MAX_STALE_MS = 600_000;

/** A scripted inner provider: answers from `table`, or throws `failWith` when set; records each request. */
function scriptedProvider(table: Record<string, string>) {
  const requests: string[][] = [];
  let version = 0;
  let failWith: unknown = null;
  const inner: RateProvider = {
    name: "scripted",
    isOffline: false,
    async fetchUsdPrices(symbols) {
      requests.push([...symbols]);
      if (failWith !== null) throw failWith;
      version += 1;
      const prices = new Map<string, UsdPrice>();
      for (const symbol of symbols) {
        const usd = table[symbol];
        if (usd !== undefined) {
          prices.set(symbol, { symbol, usd, asOf: new Date(version * 1_000), source: `scripted-v${version}` });
        }
      }
      return prices;
    },
  };
  return {
    inner,
    requests,
    fail(error: unknown) {
      failWith = error;
    },
    recover() {
      failWith = null;
    },
  };
}

/** A clock the test moves by hand. */
function manualClock(startMs = 1_000_000) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance(ms: number) {
      nowMs += ms;
    },
  };
}

function setup() {
  const source = scriptedProvider({ BTC: "100000", EUR: "1.08" });
  const clock = manualClock();
  const cached = createCachedRateProvider(source.inner, { ttlMs: TTL_MS, maxStaleMs: MAX_STALE_MS, now: clock.now });
  return { source, clock, cached };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

describe("cached rate provider", () => {
  it("passes name and isOffline through", () => {
    const { cached } = setup();
    expect(cached.name).toBe("scripted");
    expect(cached.isOffline).toBe(false);
  });

  it("serves a fresh answer from the cache until the TTL has passed", async () => {
    const { source, clock, cached } = setup();
    expect((await cached.fetchUsdPrices(["BTC"])).get("BTC")?.source).toBe("scripted-v1");
    clock.advance(TTL_MS - 1);
    expect((await cached.fetchUsdPrices(["BTC"])).get("BTC")?.source).toBe("scripted-v1");
    expect(source.requests).toEqual([["BTC"]]);
    clock.advance(1); // exactly TTL: due again
    expect((await cached.fetchUsdPrices(["BTC"])).get("BTC")?.source).toBe("scripted-v2");
    expect(source.requests).toEqual([["BTC"], ["BTC"]]);
  });

  it("asks the source only for the symbols that are due", async () => {
    const { source, clock, cached } = setup();
    await cached.fetchUsdPrices(["BTC"]);
    clock.advance(1_000);
    const prices = await cached.fetchUsdPrices(["BTC", "EUR", "EUR"]);
    expect(source.requests).toEqual([["BTC"], ["EUR"]]);
    expect(prices.get("BTC")?.source).toBe("scripted-v1");
    expect(prices.get("EUR")?.source).toBe("scripted-v2");
  });

  it("remembers that a symbol is unknown for the TTL", async () => {
    const { source, cached } = setup();
    expect((await cached.fetchUsdPrices(["KZT"])).size).toBe(0);
    expect((await cached.fetchUsdPrices(["KZT"])).size).toBe(0);
    expect(source.requests).toEqual([["KZT"]]);
  });

  it("serves stale answers up to maxStaleMs while the source fails, keeping their asOf", async () => {
    const { source, clock, cached } = setup();
    const first = (await cached.fetchUsdPrices(["BTC", "EUR"])).get("BTC");
    source.fail(new RateSourceError("scripted: down", { retryable: true, source: "scripted" }));
    clock.advance(MAX_STALE_MS); // exactly the limit: still served
    const served = await cached.fetchUsdPrices(["BTC", "EUR"]);
    expect(served.get("BTC")).toEqual(first);
    expect(served.get("BTC")?.asOf).toEqual(new Date(1_000));
    expect(served.get("EUR")?.usd).toBe("1.08");
    expect(source.requests).toHaveLength(2); // it did try the source first
  });

  it("throws the source's error once the cached answer is older than maxStaleMs", async () => {
    const { source, clock, cached } = setup();
    await cached.fetchUsdPrices(["BTC"]);
    const outage = new RateSourceError("scripted: down", { retryable: false, source: "scripted" });
    source.fail(outage);
    clock.advance(MAX_STALE_MS + 1);
    expect(await failureOf(cached.fetchUsdPrices(["BTC"]))).toBe(outage);
  });

  it("throws when a requested symbol was never answered, even if others are cached", async () => {
    const { source, cached } = setup();
    await cached.fetchUsdPrices(["BTC"]);
    source.fail(new RateSourceError("scripted: down", { retryable: true, source: "scripted" }));
    // BTC is fresh (not due), EUR is due and unknown: the call cannot be answered honestly.
    const error = await failureOf(cached.fetchUsdPrices(["BTC", "EUR"]));
    expect(error).toBeInstanceOf(RateSourceError);
  });

  it("wraps a foreign error into a retryable RateSourceError", async () => {
    const { source, cached } = setup();
    const cause = new TypeError("boom");
    source.fail(cause);
    const error = await failureOf(cached.fetchUsdPrices(["BTC"]));
    expect(error).toBeInstanceOf(RateSourceError);
    expect((error as RateSourceError).retryable).toBe(true);
    expect((error as RateSourceError).cause).toBe(cause);
  });

  it("refreshes again once the source recovers", async () => {
    const { source, clock, cached } = setup();
    await cached.fetchUsdPrices(["BTC"]);
    source.fail(new RateSourceError("scripted: down", { retryable: true, source: "scripted" }));
    clock.advance(TTL_MS);
    expect((await cached.fetchUsdPrices(["BTC"])).get("BTC")?.source).toBe("scripted-v1");
    source.recover();
    expect((await cached.fetchUsdPrices(["BTC"])).get("BTC")?.source).toBe("scripted-v2");
  });

  it("serves nothing stale without a maxStaleMs beyond the TTL", async () => {
    const source = scriptedProvider({ BTC: "100000" });
    const clock = manualClock();
    const cached = createCachedRateProvider(source.inner, { ttlMs: TTL_MS, maxStaleMs: TTL_MS, now: clock.now });
    await cached.fetchUsdPrices(["BTC"]);
    source.fail(new RateSourceError("scripted: down", { retryable: true, source: "scripted" }));
    clock.advance(TTL_MS);
    expect((await cached.fetchUsdPrices(["BTC"])).get("BTC")?.usd).toBe("100000"); // age == maxStale
    clock.advance(1);
    expect(await failureOf(cached.fetchUsdPrices(["BTC"]))).toBeInstanceOf(RateSourceError);
  });

  it("defaults maxStaleMs to 10 minutes", async () => {
    const source = scriptedProvider({ BTC: "100000" });
    const clock = manualClock();
    const cached = createCachedRateProvider(source.inner, { ttlMs: TTL_MS, now: clock.now });
    await cached.fetchUsdPrices(["BTC"]);
    source.fail(new RateSourceError("scripted: down", { retryable: true, source: "scripted" }));
    clock.advance(600_000);
    expect((await cached.fetchUsdPrices(["BTC"])).size).toBe(1);
    clock.advance(1);
    expect(await failureOf(cached.fetchUsdPrices(["BTC"]))).toBeInstanceOf(RateSourceError);
  });

  describe("concurrent callers", () => {
    /** A source whose answers wait until the test opens the gate, so callers pile up behind one request. */
    function gatedSetup() {
      const source = scriptedProvider({ BTC: "100000", EUR: "1.08", ETH: "3000" });
      let openGate = () => {};
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      const gated: RateProvider = {
        ...source.inner,
        async fetchUsdPrices(symbols) {
          await gate;
          return source.inner.fetchUsdPrices(symbols);
        },
      };
      const clock = manualClock();
      const cached = createCachedRateProvider(gated, { ttlMs: TTL_MS, maxStaleMs: MAX_STALE_MS, now: clock.now });
      return { source, clock, cached, openGate };
    }

    it("share one request per symbol on a cold cache", async () => {
      const { source, cached, openGate } = gatedSetup();
      const answers = Array.from({ length: 250 }, () => cached.fetchUsdPrices(["EUR", "BTC"]));
      openGate();
      for (const prices of await Promise.all(answers)) {
        expect(prices.get("BTC")?.usd).toBe("100000");
        expect(prices.get("EUR")?.usd).toBe("1.08");
      }
      expect(source.requests).toEqual([["EUR", "BTC"]]);
    });

    it("ask only for the symbols nobody is fetching yet", async () => {
      const { source, cached, openGate } = gatedSetup();
      const answers = Promise.all([
        cached.fetchUsdPrices(["BTC", "EUR"]),
        cached.fetchUsdPrices(["BTC"]),
        cached.fetchUsdPrices(["EUR", "ETH"]),
        cached.fetchUsdPrices(["ETH", "BTC"]),
      ]);
      openGate();
      const [both, btc, eurEth, ethBtc] = await answers;
      expect([...both.keys()].sort()).toEqual(["BTC", "EUR"]);
      expect([...btc.keys()]).toEqual(["BTC"]);
      expect([...eurEth.keys()].sort()).toEqual(["ETH", "EUR"]);
      expect([...ethBtc.keys()].sort()).toEqual(["BTC", "ETH"]);
      expect(source.requests).toEqual([["BTC", "EUR"], ["ETH"]]);
    });

    it("share a failure on a cold cache, and the next caller asks again", async () => {
      const { source, cached, openGate } = gatedSetup();
      source.fail(new RateSourceError("scripted: down", { retryable: true, source: "scripted" }));
      const failures = Array.from({ length: 20 }, () => failureOf(cached.fetchUsdPrices(["BTC"])));
      openGate();
      for (const failure of await Promise.all(failures)) {
        expect(failure).toBeInstanceOf(RateSourceError);
      }
      expect(source.requests).toHaveLength(1);
      source.recover();
      expect((await cached.fetchUsdPrices(["BTC"])).get("BTC")?.usd).toBe("100000");
      expect(source.requests).toHaveLength(2);
    });

    it("are served the stale answer when the shared refresh fails", async () => {
      const { source, clock, cached, openGate } = gatedSetup();
      openGate();
      const first = await cached.fetchUsdPrices(["BTC"]);
      clock.advance(TTL_MS);
      source.fail(new Error("socket hang up"));
      const answers = await Promise.all(Array.from({ length: 20 }, () => cached.fetchUsdPrices(["BTC"])));
      for (const prices of answers) {
        expect(prices.get("BTC")).toEqual(first.get("BTC"));
      }
      expect(source.requests).toHaveLength(2);
    });
  });

  it.each([
    [-1, 1_000],
    [Number.NaN, 1_000],
    [60_000, 59_999],
  ])("rejects ttlMs %s with maxStaleMs %s", (ttlMs, maxStaleMs) => {
    const { inner } = scriptedProvider({});
    expect(() => createCachedRateProvider(inner, { ttlMs, maxStaleMs, now: () => 0 })).toThrow(RangeError);
  });
});
