import type { GatewayConfig } from "@/lib/config/env";
import { findNetwork, findSettlementSymbol, listSettlementAssets } from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";
import { DEFAULT_PLATFORM_FEE, formatPercentBps } from "@/lib/domain/fees/platform-fee";
import { MAXIMUM_AMOUNT_USD_MINOR } from "@/lib/domain/fees/limits";
import { payoutFeeMinor } from "@/lib/services/money-out/payout-fee";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { convertMinor, type Ratio } from "@/lib/domain/money/ratio";
import type { RateProvider } from "@/lib/rates";
import { fetchUsdPriceRatios } from "@/lib/rates/usd-prices";
import type { ServiceEntry } from "@/lib/api/serialize/catalogue";

const USD = { decimals: 2, price: { numerator: 1n, denominator: 1n } satisfies Ratio };

/**
 * The (network, currency) pairs for reception or for payouts, with limits and commission in
 * the asset's own units. For reception the commission is the platform fee; for payouts it is
 * the network fee (spec: Service entry).
 */
export async function listServiceEntries(
  deps: { config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">; rates: RateProvider },
  side: "payment" | "payout",
): Promise<ServiceEntry[]> {
  const assets = listSettlementAssets();
  const prices = await fetchUsdPriceRatios(deps.rates, [...new Set(assets.map((asset) => asset.symbol))], "rate.unavailable");
  const availability = networkAvailability(deps.config);
  return assets.map((asset) => {
    const decimals = findSettlementSymbol(asset.symbol)?.decimals ?? asset.decimals;
    const price = prices.get(asset.symbol);
    const isServed = side === "payment" ? availability(asset.network).deposit : availability(asset.network).payout;
    const toAsset = (usdMinor: bigint, rounding: "up" | "down") =>
      price ? formatAmount(convertMinor(usdMinor, USD, { decimals, price }, rounding), decimals) : "0";
    const minimumUsdMinor = parseAmount(findNetwork(asset.network)?.minimumUsd ?? "0", 2) ?? 0n;
    const commission =
      side === "payment"
        ? // The fixed part is quoted rounded up: the merchant is never told a smaller fee than is taken.
          { fee_amount: toAsset(DEFAULT_PLATFORM_FEE.fixedUsdMinor, "up"), percent: formatPercentBps(DEFAULT_PLATFORM_FEE.percentBps) }
        : { fee_amount: price ? formatAmount(payoutFeeMinor(asset, price), asset.decimals) : "0", percent: "0" };
    return {
      network: asset.network,
      currency: asset.symbol,
      is_available: isServed && price !== undefined,
      limit: { min_amount: toAsset(minimumUsdMinor, "up"), max_amount: toAsset(MAXIMUM_AMOUNT_USD_MINOR, "down") },
      commission,
    };
  });
}
