import type { RateProvider } from "@/lib/rates";
import { RateSourceError } from "@/lib/rates";
import { parseRatio, type Ratio } from "@/lib/domain/money/ratio";
import { AppError, type ErrorCode } from "@/lib/errors";

/**
 * USD prices of the given symbols as exact ratios. A failing source becomes the caller's
 * documented 503 code; a symbol the source does not know is simply absent.
 */
export async function fetchUsdPriceRatios(rates: RateProvider, symbols: readonly string[], unavailableCode: ErrorCode): Promise<Map<string, Ratio>> {
  let prices;
  try {
    prices = await rates.fetchUsdPrices(symbols);
  } catch (error) {
    // By name as well: the provider may come from another copy of the module (see isAppError).
    if (error instanceof RateSourceError || (error instanceof Error && error.name === "RateSourceError")) {
      throw new AppError(unavailableCode, undefined, { cause: error });
    }
    throw error;
  }
  const ratios = new Map<string, Ratio>();
  for (const [symbol, price] of prices) {
    const ratio = parseRatio(price.usd);
    if (ratio) ratios.set(symbol, ratio);
  }
  return ratios;
}
