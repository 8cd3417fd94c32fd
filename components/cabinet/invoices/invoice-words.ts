import type { PaymentStatus } from "@/lib/domain/invoice/status";

/** The API's payment_status values, in the order an invoice goes through them, with words for people. */
export const PAYMENT_STATUS_WORDS: Record<PaymentStatus, string> = {
  select: "Waiting for the buyer's coin",
  check: "Waiting for payment",
  confirm_check: "Confirming",
  wrong_amount_waiting: "Underpaid, waiting for the rest",
  paid: "Paid",
  paid_over: "Overpaid",
  wrong_amount: "Underpaid",
  cancel: "Expired or cancelled",
};

/** A refund's coarse status (spec: Payout status) in the words of an invoice's refunds. */
export const REFUND_STATUS_WORDS: Record<string, string> = { check: "Waiting", process: "Being sent", paid: "Confirmed on chain", fail: "Failed", cancel: "Cancelled" };
