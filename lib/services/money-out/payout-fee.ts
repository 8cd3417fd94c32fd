import { findSettlementSymbol, type SettlementAsset } from "@/lib/catalogue";
import { ESTIMATED_PAYOUT_FEE_USD_MINOR } from "@/lib/domain/fees/limits";
import { convertMinor, type Ratio } from "@/lib/domain/money/ratio";

const USD_CENTS = { decimals: 2, price: { numerator: 1n, denominator: 1n } satisfies Ratio };

/**
 * The payout fee of an asset in its on-chain minor units: the network's estimated payout cost
 * in USD, converted at `usdPrice` and rounded up at the symbol's canonical precision — exactly
 * the `commission.fee_amount` that /v1/payout/services quotes, so a payout charges what the
 * list said.
 */
export function payoutFeeMinor(asset: SettlementAsset, usdPrice: Ratio): bigint {
  const canonicalDecimals = Math.min(findSettlementSymbol(asset.symbol)?.decimals ?? asset.decimals, asset.decimals);
  const canonical = convertMinor(ESTIMATED_PAYOUT_FEE_USD_MINOR[asset.network] ?? 0n, USD_CENTS, { decimals: canonicalDecimals, price: usdPrice }, "up");
  return canonical * 10n ** BigInt(asset.decimals - canonicalDecimals);
}
