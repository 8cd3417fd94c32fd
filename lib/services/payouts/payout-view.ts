import type { Payout } from "@/generated/prisma/client";
import { findSettlementAsset } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { coarsePayoutStatus, isFinalPayoutStatus, type PayoutStatus } from "@/lib/domain/payout/transition";
import { toMinor } from "@/lib/services/invoices/invoice-view";

/** A payout's amounts as decimal strings in its currency, and its statuses, as every view shows them. */
export function describePayout(payout: Payout) {
  const decimals = findSettlementAsset(payout.currency, payout.network)?.decimals ?? 0;
  const format = (minor: bigint) => formatAmount(minor, decimals);
  const status = payout.status as PayoutStatus;
  return {
    /** As requested: what the recipient gets with the fee on top, what the balance gives otherwise. */
    amount: format(BigInt(payout.requestedAmount)),
    receiveAmount: format(toMinor(payout.amountMinor)),
    fee: format(toMinor(payout.feeMinor)),
    debitAmount: format(toMinor(payout.debitMinor)),
    status,
    coarseStatus: coarsePayoutStatus(status),
    isFinal: isFinalPayoutStatus(status),
  };
}
