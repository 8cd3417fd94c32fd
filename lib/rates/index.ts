/** Exchange rates: USD prices behind one `RateProvider` interface. */
export type { RateProvider, UsdPrice } from "@/lib/rates/types";
export { RateSourceError } from "@/lib/rates/rate-source-error";
export type { ExactDecimal } from "@/lib/domain/money/decimal";
export { compareDecimal, formatDecimal, normalizeDecimal, parseDecimal, reciprocalDecimal } from "@/lib/domain/money/decimal";
export {
  SNAPSHOT_SOURCE,
  SNAPSHOT_TAKEN_AT,
  SNAPSHOT_USD_PRICES,
  createSnapshotRateProvider,
} from "@/lib/rates/snapshot-rate-provider";
export {
  COINBASE_PRICE_FRACTION_DIGITS,
  COINBASE_SOURCE,
  createCoinbaseRateProvider,
} from "@/lib/rates/coinbase-rate-provider";
export type { CoinbaseRateProviderOptions } from "@/lib/rates/coinbase-rate-provider";
export { DEFAULT_MAX_STALE_MS, createCachedRateProvider } from "@/lib/rates/cached-rate-provider";
export type { CachedRateProviderOptions } from "@/lib/rates/cached-rate-provider";
export {
  RATE_PROVIDER_NAMES,
  createRateProviderFromConfig,
  isRateProviderName,
} from "@/lib/rates/create-rate-provider-from-config";
export type { RateProviderConfigOptions, RateProviderName } from "@/lib/rates/create-rate-provider-from-config";
