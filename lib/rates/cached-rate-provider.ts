import { RateSourceError } from "@/lib/rates/rate-source-error";
import type { RateProvider, UsdPrice } from "@/lib/rates/types";

/** Default for `maxStaleMs`: how old a cached price may be when the source is failing. */
export const DEFAULT_MAX_STALE_MS = 10 * 60_000;

/** Options of the caching wrapper. All times are milliseconds. */
export interface CachedRateProviderOptions {
  /** How long an answer is reused without asking the source again. */
  ttlMs: number;
  /**
   * How old a cached answer may be and still be served while the source is failing; at least `ttlMs`.
   * Default: the larger of `ttlMs` and 10 minutes.
   */
  maxStaleMs?: number;
  /** Clock in milliseconds since the epoch (injected; tests move it by hand). */
  now: () => number;
}

interface CacheEntry {
  /** The last good answer; null when the source answered but did not know the symbol. */
  price: UsdPrice | null;
  /** `now()` when the answer was obtained. */
  fetchedAtMs: number;
}

/**
 * Wraps a provider with a per-symbol cache. A symbol answered less than `ttlMs` ago is served from the
 * cache without calling `inner`. When `inner` fails, every requested symbol that is due for a refresh
 * is served from the cache if its last answer is at most `maxStaleMs` old; if any is older or was never
 * answered, the call throws (a `RateSourceError`, retryable unless `inner` said otherwise).
 * Served prices keep their original `asOf`, so callers can see how old they are.
 * Concurrent callers due for the same symbol share one request to `inner` (and its outcome).
 */
export function createCachedRateProvider(inner: RateProvider, options: CachedRateProviderOptions): RateProvider {
  const { ttlMs, now } = options;
  const maxStaleMs = options.maxStaleMs ?? Math.max(ttlMs, DEFAULT_MAX_STALE_MS);
  if (!Number.isFinite(ttlMs) || ttlMs < 0) {
    throw new RangeError("ttlMs must be a non-negative number of milliseconds");
  }
  if (!Number.isFinite(maxStaleMs) || maxStaleMs < ttlMs) {
    throw new RangeError("maxStaleMs must be at least ttlMs");
  }
  const cache = new Map<string, CacheEntry>();
  /** Symbols being fetched right now, each with the request that will answer it. */
  const inFlight = new Map<string, Promise<void>>();

  /** Asks `inner` for `symbols` once, caching what it answers; callers due for the same symbols share it. */
  function refresh(symbols: string[], startedAtMs: number): Promise<void> {
    // Run the request in a later microtask, so every symbol is registered before it can settle.
    const request = Promise.resolve().then(async () => {
      try {
        const fetched = await inner.fetchUsdPrices(symbols);
        // Stamp with the time the request started: the answer is at least that fresh.
        for (const symbol of symbols) {
          cache.set(symbol, { price: fetched.get(symbol) ?? null, fetchedAtMs: startedAtMs });
        }
      } finally {
        for (const symbol of symbols) {
          inFlight.delete(symbol);
        }
      }
    });
    for (const symbol of symbols) {
      inFlight.set(symbol, request);
    }
    return request;
  }

  return {
    name: inner.name,
    isOffline: inner.isOffline,
    async fetchUsdPrices(symbols: readonly string[]): Promise<Map<string, UsdPrice>> {
      const requested = [...new Set(symbols)];
      const startedAtMs = now();
      const due = requested.filter((symbol) => {
        const entry = cache.get(symbol);
        return entry === undefined || startedAtMs - entry.fetchedAtMs >= ttlMs;
      });

      if (due.length > 0) {
        // A symbol another caller is already fetching joins that request instead of asking again,
        // so a burst of callers on a cold or expired cache sends one request per symbol, not one each.
        const requests = new Set<Promise<void>>();
        const unasked: string[] = [];
        for (const symbol of due) {
          const pending = inFlight.get(symbol);
          if (pending === undefined) unasked.push(symbol);
          else requests.add(pending);
        }
        if (unasked.length > 0) requests.add(refresh(unasked, startedAtMs));

        const failure = (await Promise.allSettled(requests)).find((outcome) => outcome.status === "rejected");
        if (failure !== undefined) {
          const isEveryDueSymbolServable = due.every((symbol) => {
            const entry = cache.get(symbol);
            return entry !== undefined && startedAtMs - entry.fetchedAtMs <= maxStaleMs;
          });
          if (!isEveryDueSymbolServable) {
            const error: unknown = failure.reason;
            throw error instanceof RateSourceError
              ? error
              : new RateSourceError(`${inner.name}: rate source failed`, { retryable: true, source: inner.name, cause: error });
          }
          // Otherwise fall through and serve the stale-but-acceptable answers below.
        }
      }

      const prices = new Map<string, UsdPrice>();
      for (const symbol of requested) {
        const price = cache.get(symbol)?.price;
        if (price !== undefined && price !== null) {
          prices.set(symbol, price);
        }
      }
      return prices;
    },
  };
}
