import { mulDivUp } from "@/lib/domain/money/ratio";

/**
 * Confirmations one transfer needs before it is credited: the invoice's own tier, or the tier of
 * the transfer's value when that is higher, so a large overpayment on a small invoice waits as
 * long as a large invoice would. Never fewer than one.
 *
 * @param input.amountMinor the transfer, in the settlement asset's minor units.
 * @param input.payerAmountMinor the invoice's amount in the same units; with `priceUsdMinor`
 *   (USD cents, null on invoices quoted before values were kept) it prices the transfer,
 *   rounded up (towards more confirmations). E.g. 10 USDT on a 1 USDT invoice worth 100 cents
 *   is valued at 1 000 cents.
 * @param input.tierFor the asset's confirmation policy: confirmations for a value in USD cents.
 */
export function requiredConfirmationsForTransfer(input: {
  invoiceRequired: number;
  amountMinor: bigint;
  payerAmountMinor: bigint;
  priceUsdMinor: bigint | null;
  tierFor(valueUsdMinor: bigint): number;
}): number {
  const floor = Math.max(1, input.invoiceRequired);
  if (input.priceUsdMinor === null || input.payerAmountMinor <= 0n) return floor;
  const valueUsdMinor = mulDivUp(input.amountMinor, input.priceUsdMinor, input.payerAmountMinor);
  return Math.max(floor, input.tierFor(valueUsdMinor));
}
