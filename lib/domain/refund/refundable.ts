import { LIVE_PAYOUT_STATUSES } from "@/lib/domain/payout/transition";

/** A refund as these rules read it: its payout's status and the amount asked for, in minor units. */
export interface CountedRefund {
  status: string;
  requestedAmount: string;
}

/** What the refunds that still count (not failed or cancelled) take from a payment, in minor units. */
export function refundedMinor(refunds: readonly CountedRefund[]): bigint {
  return refunds.filter((refund) => (LIVE_PAYOUT_STATUSES as string[]).includes(refund.status)).reduce((sum, refund) => sum + BigInt(refund.requestedAmount), 0n);
}

/** What is left to refund of a payment: what it received minus the refunds that count, never below zero. */
export function refundableMinor(amountPaidMinor: bigint, refunds: readonly CountedRefund[]): bigint {
  const left = amountPaidMinor - refundedMinor(refunds);
  return left > 0n ? left : 0n;
}

/** spec: Refund summary — `none`, `partial` or `full`, over refunds not failed or cancelled. */
export function refundSummary(amountPaidMinor: bigint, refunds: readonly CountedRefund[]): "none" | "partial" | "full" {
  const refunded = refundedMinor(refunds);
  if (refunded === 0n) return "none";
  return refunded >= amountPaidMinor ? "full" : "partial";
}
