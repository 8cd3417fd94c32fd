import { listPricingCurrencies, normalizeSymbol } from "@/lib/catalogue";
import { divideRatios, formatRatio } from "@/lib/domain/money/ratio";
import type { RateProvider } from "@/lib/rates";
import { fetchUsdPriceRatios } from "@/lib/rates/usd-prices";
import type { ExchangeRateItem } from "@/lib/api/serialize/catalogue";

const QUOTE_SYMBOL = "USDT";
const COURSE_FRACTION_DIGITS = 12;

/** spec: Exchange rates — quotes against USDT; an unknown currency gives an empty list. */
export async function listExchangeRates(rates: RateProvider, currencyFrom: string | undefined): Promise<ExchangeRateItem[]> {
  const known = listPricingCurrencies().map((currency) => currency.symbol);
  const requested = currencyFrom === undefined ? known : known.filter((symbol) => symbol === normalizeSymbol(currencyFrom));
  if (requested.length === 0) return [];
  const prices = await fetchUsdPriceRatios(rates, [...new Set([...requested, QUOTE_SYMBOL])], "rate.unavailable");
  const quote = prices.get(QUOTE_SYMBOL);
  if (!quote) return [];
  return requested.flatMap((symbol) => {
    const price = prices.get(symbol);
    if (!price) return [];
    return [
      {
        from: symbol,
        to: QUOTE_SYMBOL,
        course: formatRatio(divideRatios(price, quote), COURSE_FRACTION_DIGITS),
        source: rates.name,
        is_offline: rates.isOffline,
      },
    ];
  });
}
