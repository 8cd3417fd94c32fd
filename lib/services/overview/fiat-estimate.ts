import { FIAT_CURRENCIES, findPricingCurrency } from "@/lib/catalogue";
import type { AppDeps } from "@/lib/deps/app-deps";
import { formatAmount } from "@/lib/domain/money/amount";
import { convertMinor, parseRatio, type Ratio } from "@/lib/domain/money/ratio";
import { RateSourceError } from "@/lib/rates";

/** The fiat the overview's estimates are in when the merchant chose none. */
export const DEFAULT_ESTIMATE_FIAT = "USD";

/** The fiat pricing currencies of the catalogue, in its order: what the overview can estimate in. */
export function listEstimateFiats(): string[] {
  return FIAT_CURRENCIES.map((currency) => currency.symbol);
}

/** A fiat of the catalogue (any case), or the default one. */
export function toEstimateFiat(value: string | undefined | null): string {
  const symbol = value?.trim().toUpperCase() ?? "";
  return listEstimateFiats().includes(symbol) ? symbol : DEFAULT_ESTIMATE_FIAT;
}

/** Today's prices of coins in one fiat, read once before the page renders. */
export type FiatPrices =
  | {
      status: "ready";
      fiat: string;
      decimals: number;
      /** The oldest observation among the prices used, and their source. */
      asOf: Date;
      source: string;
      isOffline: boolean;
      /** Converts an amount of a coin (minor units, `decimals`) into the fiat's minor units, rounded down; null without a price. */
      convert(symbol: string, amountMinor: bigint, decimals: number): bigint | null;
    }
  | { status: "unavailable"; fiat: string; reason: string };

/**
 * USD prices of the coins and of the fiat from the service's rate source, turned into exact
 * conversions into the fiat. Outside any transaction: it may call the network. A failing source,
 * or one without the fiat's price, is an answer ("unavailable"), not an error: the page says so.
 */
export async function fetchFiatPrices(deps: Pick<AppDeps, "rates">, fiat: string, coins: readonly string[]): Promise<FiatPrices> {
  const pricing = findPricingCurrency(fiat);
  if (!pricing || !pricing.isFiat) return { status: "unavailable", fiat, reason: `${fiat} is not a fiat currency of the catalogue` };
  let prices;
  try {
    prices = await deps.rates.fetchUsdPrices([...new Set([fiat, ...coins])]);
  } catch (error) {
    if (error instanceof RateSourceError || (error instanceof Error && error.name === "RateSourceError")) {
      return { status: "unavailable", fiat, reason: "the rate source did not answer" };
    }
    throw error;
  }
  const fiatPrice = prices.get(fiat);
  const fiatRatio = fiatPrice ? parseRatio(fiatPrice.usd) : null;
  if (!fiatPrice || !fiatRatio) return { status: "unavailable", fiat, reason: `the rate source has no price for ${fiat}` };
  const ratios = new Map<string, Ratio>();
  let asOf = fiatPrice.asOf;
  for (const symbol of coins) {
    const price = prices.get(symbol);
    const ratio = price ? parseRatio(price.usd) : null;
    if (!price || !ratio) continue;
    ratios.set(symbol, ratio);
    if (price.asOf < asOf) asOf = price.asOf;
  }
  return {
    status: "ready",
    fiat,
    decimals: pricing.decimals,
    asOf,
    source: fiatPrice.source,
    isOffline: deps.rates.isOffline,
    convert(symbol, amountMinor, decimals) {
      const price = ratios.get(symbol);
      if (!price) return null;
      // Rounded toward zero: an estimate never shows more than the coins are worth at the rate.
      return convertMinor(amountMinor, { decimals, price }, { decimals: pricing.decimals, price: fiatRatio }, "down");
    },
  };
}

/**
 * The change from `previous` to `current` in percent with one decimal, rounded half away from
 * zero; null when there was nothing before. Example: 150 against 120 → "25.0".
 */
export function percentChange(current: bigint, previous: bigint): string | null {
  if (previous <= 0n) return null;
  const tenths = (current - previous) * 1000n;
  const rounded = (tenths * 2n + (tenths >= 0n ? previous : -previous)) / (2n * previous);
  return formatAmount(rounded, 1, 1);
}
