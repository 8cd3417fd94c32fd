/** spec: Payment status. */
export type PaymentStatus =
  /** Currency-agnostic invoice waiting for the buyer's coin and network. */
  | "select"
  /** Created, waiting for payment. */
  | "check"
  /** Transaction seen, waiting for confirmations. */
  | "confirm_check"
  /** Underpayment, waiting for the rest (term not over). */
  | "wrong_amount_waiting"
  /** Paid within tolerance. Terminal. */
  | "paid"
  /** Overpaid beyond tolerance. Terminal. */
  | "paid_over"
  /** Underpaid, term over. Terminal. */
  | "wrong_amount"
  /** Expired or cancelled. Terminal. */
  | "cancel";

export const FINAL_PAYMENT_STATUSES: ReadonlySet<PaymentStatus> = new Set(["paid", "paid_over", "wrong_amount", "cancel"]);

export function isFinalPaymentStatus(status: PaymentStatus): boolean {
  return FINAL_PAYMENT_STATUSES.has(status);
}

/** spec: Events — the webhook event of a status, for those that have one. */
export function eventTypeOfStatus(status: PaymentStatus): string | null {
  switch (status) {
    case "paid":
      return "invoice.paid";
    case "paid_over":
      return "invoice.paid_over";
    case "wrong_amount":
      return "invoice.wrong_amount";
    case "cancel":
      return "invoice.expired";
    default:
      return null;
  }
}

/** Every payment status, in the order the specification lists them. */
export const PAYMENT_STATUSES = ["select", "check", "confirm_check", "wrong_amount_waiting", "paid", "paid_over", "wrong_amount", "cancel"] as const satisfies readonly PaymentStatus[];
