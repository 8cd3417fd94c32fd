import { formatDecimal, parseDecimal, reciprocalDecimal } from "@/lib/domain/money/decimal";
import { RateSourceError } from "@/lib/rates/rate-source-error";
import type { RateProvider, UsdPrice } from "@/lib/rates/types";

/** Options of the Coinbase public exchange-rates source. */
export interface CoinbaseRateProviderOptions {
  /** The fetch to use; injected so tests serve recorded responses. */
  fetch: typeof fetch;
  /** API origin; default "https://api.coinbase.com". */
  baseUrl?: string;
  /** Whole-request timeout (headers and body) in milliseconds; default 5000. */
  timeoutMs?: number;
  /** Clock in milliseconds since the epoch, used for `asOf` (the response carries no timestamp); default `Date.now`. */
  now?: () => number;
}

export const COINBASE_SOURCE = "coinbase";

/** Fraction digits kept when turning "units per USD" into "USD per unit". */
export const COINBASE_PRICE_FRACTION_DIGITS = 18;

/**
 * Keys tried in the Coinbase table for a catalogue symbol, in order. Polygon's coin was renamed from
 * MATIC to POL; Coinbase may list either, so POL falls back to MATIC.
 */
const COINBASE_KEYS_BY_SYMBOL: ReadonlyMap<string, readonly string[]> = new Map([["POL", ["POL", "MATIC"]]]);

/**
 * Creates a rate provider backed by Coinbase's public `GET /v2/exchange-rates?currency=USD`, whose rates
 * are units of X per 1 USD. Each is turned into USD per unit exactly: the reciprocal, rounded half-up
 * to 18 fraction digits. Entries that are not positive decimal strings are skipped.
 */
export function createCoinbaseRateProvider(options: CoinbaseRateProviderOptions): RateProvider {
  const fetchImpl = options.fetch;
  const baseUrl = (options.baseUrl ?? "https://api.coinbase.com").replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 5_000;
  const now = options.now ?? Date.now;
  const url = `${baseUrl}/v2/exchange-rates?currency=USD`;

  return {
    name: COINBASE_SOURCE,
    isOffline: false,
    async fetchUsdPrices(symbols: readonly string[]): Promise<Map<string, UsdPrice>> {
      const prices = new Map<string, UsdPrice>();
      if (symbols.length === 0) {
        return prices;
      }
      const rates = await fetchRatesPerUsd(fetchImpl, url, timeoutMs);
      const asOf = new Date(now());
      for (const symbol of new Set(symbols)) {
        const usd = usdPriceOf(symbol, rates);
        if (usd !== null) {
          prices.set(symbol, { symbol, usd, asOf: new Date(asOf.getTime()), source: COINBASE_SOURCE });
        }
      }
      return prices;
    },
  };
}

/** USD per unit of `symbol`, or null when Coinbase has no usable rate for it. */
function usdPriceOf(symbol: string, ratesPerUsd: ReadonlyMap<string, unknown>): string | null {
  if (symbol === "USD") {
    // The base currency of the request: 1 USD is 1 USD whatever the table says.
    return "1";
  }
  for (const key of COINBASE_KEYS_BY_SYMBOL.get(symbol) ?? [symbol]) {
    const raw = ratesPerUsd.get(key);
    // Only strings are exact; a JSON number has already been through a float, so it is skipped too.
    const perUsd = typeof raw === "string" ? parseDecimal(raw) : null;
    if (perUsd === null || perUsd.digits <= 0n) {
      continue;
    }
    const usdPerUnit = reciprocalDecimal(perUsd, COINBASE_PRICE_FRACTION_DIGITS);
    // A coin so cheap that its price rounds to zero at 18 digits has no usable price.
    if (usdPerUnit.digits > 0n) {
      return formatDecimal(usdPerUnit);
    }
  }
  return null;
}

/** Downloads and validates the rate table; every failure becomes a retryable RateSourceError. */
async function fetchRatesPerUsd(fetchImpl: typeof fetch, url: string, timeoutMs: number): Promise<Map<string, unknown>> {
  let body: string;
  try {
    // One signal covers connecting, the headers and reading the body.
    const response = await fetchImpl(url, {
      method: "GET",
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      // Release the connection; the body is not needed and must not end up in the message.
      await response.body?.cancel().catch(() => undefined);
      throw new RateSourceError(`coinbase: HTTP ${response.status}`, { retryable: true, source: COINBASE_SOURCE });
    }
    body = await response.text();
  } catch (error) {
    if (error instanceof RateSourceError) {
      throw error;
    }
    const isTimeout = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new RateSourceError(isTimeout ? `coinbase: no answer within ${timeoutMs} ms` : "coinbase: request failed", {
      retryable: true,
      source: COINBASE_SOURCE,
      cause: error,
    });
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new RateSourceError("coinbase: response is not JSON", { retryable: true, source: COINBASE_SOURCE, cause: error });
  }
  const data = isRecord(parsed) ? parsed.data : undefined;
  if (!isRecord(data) || data.currency !== "USD" || !isRecord(data.rates)) {
    throw new RateSourceError("coinbase: response is not a USD exchange-rate table", {
      retryable: true,
      source: COINBASE_SOURCE,
    });
  }
  return new Map(Object.entries(data.rates));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
