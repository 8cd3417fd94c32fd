import { createCachedRateProvider } from "@/lib/rates/cached-rate-provider";
import { createCoinbaseRateProvider } from "@/lib/rates/coinbase-rate-provider";
import { createSnapshotRateProvider } from "@/lib/rates/snapshot-rate-provider";
import type { RateProvider } from "@/lib/rates/types";

/** Names of the rate sources that configuration can select. */
export const RATE_PROVIDER_NAMES = ["snapshot", "coinbase"] as const;

/** A rate source configuration can select: the offline snapshot (default) or Coinbase. */
export type RateProviderName = (typeof RATE_PROVIDER_NAMES)[number];

/** Tunables of the live source; every field has a default. Times in milliseconds. */
export interface RateProviderConfigOptions {
  /** Clock in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** How long a live answer is reused; default 60 s. */
  ttlMs?: number;
  /** How old a live answer may be when the source is failing; default 10 min. */
  maxStaleMs?: number;
  /** Coinbase API origin; default "https://api.coinbase.com". */
  baseUrl?: string;
  /** Coinbase request timeout; default 5 s. */
  timeoutMs?: number;
}

/** Tells whether a configuration value names a rate source. */
export function isRateProviderName(name: string): name is RateProviderName {
  return (RATE_PROVIDER_NAMES as readonly string[]).includes(name);
}

/**
 * Creates the rate provider selected by configuration. "snapshot" is the fixed offline table;
 * "coinbase" is the live Coinbase source behind a cache (60 s fresh, served up to 10 min old while
 * Coinbase fails), so invoices do not each cost an HTTP request.
 */
export function createRateProviderFromConfig(
  name: RateProviderName,
  fetchImpl: typeof fetch = globalThis.fetch,
  options: RateProviderConfigOptions = {},
): RateProvider {
  switch (name) {
    case "snapshot":
      return createSnapshotRateProvider();
    case "coinbase": {
      const now = options.now ?? Date.now;
      const coinbase = createCoinbaseRateProvider({
        fetch: fetchImpl,
        now,
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      return createCachedRateProvider(coinbase, {
        ttlMs: options.ttlMs ?? 60_000,
        maxStaleMs: options.maxStaleMs ?? 10 * 60_000,
        now,
      });
    }
    default: {
      const unknownName: never = name;
      throw new Error(`unknown rate provider: ${String(unknownName)}`);
    }
  }
}
