import { findNetwork, findPricingCurrency, findSettlementAsset, findSettlementSymbol, listSettlementAssets, type NetworkId } from "@/lib/catalogue";
import { requiredConfirmations } from "@/lib/catalogue";
import type { RateProvider } from "@/lib/rates";
import { parseAmount } from "@/lib/domain/money/amount";
import { formatRatio, type Ratio } from "@/lib/domain/money/ratio";
import { quoteInvoice } from "@/lib/domain/invoice/quote";
import { AppError, type ErrorCode } from "@/lib/errors";
import { fetchUsdPriceRatios } from "@/lib/rates/usd-prices";

/** How long a fixed rate stays valid before the hosted page re-quotes an unpaid invoice. */
export const RATE_VALIDITY_SECONDS = 900;

/** USD prices of the symbols, or the caller's 503 code when the source fails or lacks one. */
export async function fetchPricesOrThrow(rates: RateProvider, symbols: string[], code: ErrorCode): Promise<Map<string, Ratio>> {
  const prices = await fetchUsdPriceRatios(rates, [...new Set(symbols)], code);
  for (const symbol of symbols) if (!prices.get(symbol)) throw new AppError(code, `No price for ${symbol}.`);
  return prices;
}

/** The network's minimum invoice in USD cents. */
export function networkMinimumUsdMinor(network: string): bigint {
  return parseAmount(findNetwork(network)?.minimumUsd ?? "0", 2) ?? 0n;
}

/** The smallest minimum among the given networks (a currency-agnostic invoice must clear at least one). */
export function smallestMinimumUsdMinor(networks: string[]): bigint | null {
  const minimums = networks.map(networkMinimumUsdMinor);
  return minimums.length === 0 ? null : minimums.reduce((a, b) => (b < a ? b : a));
}

export function settleableNetworks(isDepositAvailable: (network: string) => boolean): string[] {
  return [...new Set(listSettlementAssets().map((asset) => asset.network))].filter(isDepositAvailable);
}

export interface FixedQuote {
  payerAmountMinor: bigint;
  rate: string;
  feeFixedAssetMinor: bigint;
  priceUsdMinor: bigint;
  requiredConfirmations: number;
  rateExpiresAt: Date;
}

/** Quotes a priced amount in a settlement asset at the given prices (see quoteInvoice). */
export function quoteInSettlement(input: {
  priceCurrency: { symbol: string; decimals: number };
  priceMinor: bigint;
  symbol: string;
  network: NetworkId | string;
  prices: Map<string, Ratio>;
  subtractPercent: number;
  feeFixedUsdMinor: bigint;
  now: Date;
  expiresAt: Date;
}): FixedQuote {
  const asset = findSettlementAsset(input.symbol, input.network);
  if (!asset) throw new AppError("payment.unsupported_network");
  const displayDecimals = Math.min(asset.decimals, findSettlementSymbol(input.symbol)?.decimals ?? asset.decimals);
  const quote = quoteInvoice({
    priceMinor: input.priceMinor,
    price: { decimals: input.priceCurrency.decimals, usdPrice: input.prices.get(input.priceCurrency.symbol)! },
    settlement: { decimals: asset.decimals, roundingDecimals: displayDecimals, usdPrice: input.prices.get(input.symbol)! },
    subtractPercent: input.subtractPercent,
    feeFixedUsdMinor: input.feeFixedUsdMinor,
  });
  if (quote.payerAmountMinor <= 0n) throw new AppError("invoice.bad_price");
  const rateExpiresAt = new Date(Math.min(input.now.getTime() + RATE_VALIDITY_SECONDS * 1000, input.expiresAt.getTime()));
  return {
    payerAmountMinor: quote.payerAmountMinor,
    rate: formatRatio(quote.rate, 18),
    feeFixedAssetMinor: quote.feeFixedAssetMinor,
    priceUsdMinor: quote.priceUsdMinor,
    requiredConfirmations: requiredConfirmations(asset, quote.priceUsdMinor),
    rateExpiresAt,
  };
}

/** Symbols whose prices re-quoting a stored invoice needs. */
export function requoteSymbols(row: { priceCurrency: string; payerCurrency: string | null }): string[] {
  return row.payerCurrency ? [row.priceCurrency, row.payerCurrency] : [row.priceCurrency];
}

/** Re-quotes a stored invoice on its own terms (price, coin, network, surcharge, fee) at new prices. */
export function requoteStoredInvoice(
  row: { priceCurrency: string; priceAmountMinor: { toFixed(): string }; payerCurrency: string | null; network: string | null; subtractPercent: number; feeFixedUsdMinor: { toFixed(): string } },
  prices: Map<string, Ratio>,
  now: Date,
  expiresAt: Date,
): FixedQuote {
  const pricing = findPricingCurrency(row.priceCurrency);
  if (!pricing || !row.payerCurrency || !row.network) throw new AppError("invoice.no_pay_asset");
  return quoteInSettlement({
    priceCurrency: pricing,
    priceMinor: BigInt(row.priceAmountMinor.toFixed()),
    symbol: row.payerCurrency,
    network: row.network,
    prices,
    subtractPercent: row.subtractPercent,
    feeFixedUsdMinor: BigInt(row.feeFixedUsdMinor.toFixed()),
    now,
    expiresAt,
  });
}
