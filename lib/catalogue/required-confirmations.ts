import type { SettlementAsset } from "@/lib/catalogue/types";

/**
 * Confirmations needed to credit a payment of the given USD value in this asset: the first tier of the
 * asset's policy whose inclusive bound covers the value.
 *
 * @param amountUsdMinor payment value in USD cents; e.g. for BTC on bitcoin `100_000n` (1 000 USD) → 1
 *   and `100_001n` → 3. Values below zero are treated like zero.
 */
export function requiredConfirmations(asset: Pick<SettlementAsset, "confirmationPolicy">, amountUsdMinor: bigint): number {
  for (const tier of asset.confirmationPolicy) {
    if (tier.upToUsdMinor === null || amountUsdMinor <= tier.upToUsdMinor) {
      return tier.confirmations;
    }
  }
  // Unreachable for the catalogue's policies (their last tier is unbounded); refuse to guess otherwise.
  throw new Error("confirmation policy has no unbounded last tier");
}

/** Confirmations of the first tier of the asset's policy: the `min_confirmations` of `GET /v1/currencies`. */
export function minimumConfirmations(asset: Pick<SettlementAsset, "confirmationPolicy">): number {
  const first = asset.confirmationPolicy[0];
  if (first === undefined) {
    throw new Error("confirmation policy is empty");
  }
  return first.confirmations;
}
