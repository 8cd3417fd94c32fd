import { isFinalPaymentStatus, type PaymentStatus } from "./status";

/** What the deposit pipeline knows about an invoice when it decides. */
export interface InvoiceState {
  status: PaymentStatus;
  /** Expected amount in settlement minor units. */
  expectedMinor: bigint;
  /** Tolerance in basis points of the expected amount (0 to 500). */
  accuracyBps: number;
  isPaymentMultiple: boolean;
  expiresAt: Date;
}

/** The transfers to the invoice's address, as the watchers report them. */
export interface TransferTotals {
  /** Sum of transfers with enough confirmations. */
  confirmedMinor: bigint;
  /** Sum of transfers seen but not yet confirmed enough. */
  pendingMinor: bigint;
}

export interface InvoiceDecision {
  status: PaymentStatus;
  /** True when the invoice reaches a final status with money received: post the settlement. */
  shouldSettle: boolean;
}

/** How a received total compares with the expected amount, within the tolerance. */
export function classifyAmount(receivedMinor: bigint, expectedMinor: bigint, accuracyBps: number): "under" | "within" | "over" {
  // received < expected × (1 − accuracy) ⇔ received × 10000 < expected × (10000 − bps): exact integers.
  if (receivedMinor * 10_000n < expectedMinor * BigInt(10_000 - accuracyBps)) return "under";
  if (receivedMinor * 10_000n > expectedMinor * BigInt(10_000 + accuracyBps)) return "over";
  return "within";
}

/**
 * The invoice lifecycle as one transition: the current state, the transfers to its address and
 * the time → the next status and whether to settle. Final statuses never move. A term that
 * ends while a transfer is still confirming does not cancel the invoice: the buyer paid in time.
 */
export function decideInvoice(state: InvoiceState, totals: TransferTotals, now: Date): InvoiceDecision {
  if (isFinalPaymentStatus(state.status)) return { status: state.status, shouldSettle: false };
  const isExpired = now >= state.expiresAt;
  if (state.status === "select") return { status: isExpired ? "cancel" : "select", shouldSettle: false };

  if (totals.confirmedMinor > 0n) {
    const verdict = classifyAmount(totals.confirmedMinor, state.expectedMinor, state.accuracyBps);
    if (verdict === "within") return { status: "paid", shouldSettle: true };
    if (verdict === "over") return { status: "paid_over", shouldSettle: true };
    // Underpaid: the rest may be confirming, or may still come while the term lasts.
    if (totals.pendingMinor > 0n) return { status: "confirm_check", shouldSettle: false };
    if (!isExpired && state.isPaymentMultiple) return { status: "wrong_amount_waiting", shouldSettle: false };
    return { status: "wrong_amount", shouldSettle: true };
  }
  if (totals.pendingMinor > 0n) return { status: "confirm_check", shouldSettle: false };
  if (isExpired) return { status: "cancel", shouldSettle: false };
  return { status: "check", shouldSettle: false };
}
