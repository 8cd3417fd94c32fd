import type { CoarsePayoutStatus } from "@/lib/domain/payout/transition";
import type { PayoutKind } from "@/lib/services/payouts/search-payouts";

/** The coarse statuses (spec: Payout status) as the cabinet names them. */
export const STATUS_WORDS: Record<CoarsePayoutStatus, string> = {
  check: "Check — awaiting approval",
  process: "Process — being sent",
  paid: "Paid — confirmed on chain",
  fail: "Fail — rejected or failed",
  cancel: "Cancel — cancelled",
};

/** The coarse statuses in a word or two, for status pills. */
export const STATUS_CHIP_WORDS: Record<CoarsePayoutStatus, string> = {
  check: "Awaiting approval",
  process: "Being sent",
  paid: "Paid",
  fail: "Failed",
  cancel: "Cancelled",
};

export const KIND_WORDS: Record<PayoutKind, string> = {
  payout: "Payout",
  refund: "Refund of a payment",
  split: "Split share",
  wallet_refund: "Blocked wallet refund",
};

/** Internal statuses (spec: Payout status, internal lifecycle) in a few words. */
export const INTERNAL_STATUS_WORDS: Record<string, string> = {
  pending: "awaiting approval",
  approved: "approved, queued to send",
  broadcasting: "signed, broadcasting",
  sent: "sent, waiting for confirmations",
  confirmed: "confirmed",
  failed: "failed",
  cancelled: "cancelled",
};

/** Why a cabinet user may not approve a payout they made. */
export const OWN_PAYOUT_REASON = "You created this payout; another user approves it.";
