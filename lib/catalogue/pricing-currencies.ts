import { SETTLEMENT_SYMBOLS } from "@/lib/catalogue/settlement-assets";
import type { PricingCurrency } from "@/lib/catalogue/types";

/**
 * The 23 fiat currencies an invoice can be priced in (spec: Currency catalogue). Fiat can only be a
 * price currency. KZT, KGS and UZS are deliberately absent: they are unsupported
 * (`payment.unknown_currency`).
 */
export const FIAT_CURRENCIES: readonly PricingCurrency[] = [
  fiat("USD", 2),
  fiat("EUR", 2),
  fiat("GBP", 2),
  fiat("RUB", 2),
  fiat("UAH", 2),
  fiat("PLN", 2),
  fiat("CZK", 2),
  fiat("TRY", 2),
  fiat("CNY", 2),
  fiat("INR", 2),
  fiat("BRL", 2),
  fiat("CAD", 2),
  fiat("AUD", 2),
  fiat("CHF", 2),
  fiat("AED", 2),
  fiat("ZAR", 2),
  fiat("MXN", 2),
  fiat("IDR", 2),
  fiat("THB", 2),
  fiat("VND", 2),
  fiat("NGN", 2),
  fiat("JPY", 0),
  fiat("KRW", 0),
];

/**
 * All 38 pricing currencies (spec: Limits): the 15 settlement coins with their canonical decimals,
 * then the 23 fiats.
 */
export const PRICING_CURRENCIES: readonly PricingCurrency[] = [
  ...SETTLEMENT_SYMBOLS.map(({ symbol, decimals }) => ({ symbol, decimals, isFiat: false })),
  ...FIAT_CURRENCIES,
];

const PRICING_CURRENCIES_BY_SYMBOL: ReadonlyMap<string, PricingCurrency> = new Map(
  PRICING_CURRENCIES.map((currency) => [currency.symbol, currency]),
);

/** Lists the 38 pricing currencies: coins first, then fiats, in catalogue order. */
export function listPricingCurrencies(): readonly PricingCurrency[] {
  return PRICING_CURRENCIES;
}

/**
 * Finds a pricing currency by its exact upper-case symbol (`"EUR"`, `"USDT"`); returns null for
 * unknown symbols such as `"KZT"`. Normalise user input first.
 */
export function findPricingCurrency(symbol: string): PricingCurrency | null {
  return PRICING_CURRENCIES_BY_SYMBOL.get(symbol) ?? null;
}

function fiat(symbol: string, decimals: number): PricingCurrency {
  return { symbol, decimals, isFiat: true };
}
