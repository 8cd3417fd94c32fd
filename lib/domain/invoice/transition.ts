import { platformFeeMinor } from "./quote";
import { eventTypeOfStatus, isFinalPaymentStatus, type PaymentStatus } from "./status";

/** What the deposit pipeline knows about an invoice when it decides. */
export interface InvoiceState {
  status: PaymentStatus;
  /** Expected amount in settlement minor units. */
  expectedMinor: bigint;
  /** Tolerance in basis points of the expected amount (0 to 500). */
  accuracyBps: number;
  isPaymentMultiple: boolean;
  expiresAt: Date;
  /** How much of the confirmed amount was settled to the merchant already (settlement minor units). */
  settledMinor: bigint;
  /** The platform fee fixed at creation: basis points, and the fixed part in settlement minor units. */
  fee: { percentBps: number; fixedMinor: bigint };
}

/** The transfers to the invoice's address, as the watchers report them. */
export interface TransferTotals {
  /** Sum of transfers with enough confirmations. */
  confirmedMinor: bigint;
  /** Sum of transfers seen but not yet confirmed enough. */
  pendingMinor: bigint;
}

/** The next status and every effect that comes with it; the service applies them, nothing else. */
export interface InvoiceDecision {
  status: PaymentStatus;
  isFinal: boolean;
  /**
   * Money to settle now (settlement minor units): `receivedMinor` leaves incoming, `feeMinor` goes
   * to the platform, the rest starts maturing for the merchant. Null when nothing is to settle.
   */
  settlement: { receivedMinor: bigint; feeMinor: bigint } | null;
  /** The `invoice.*` event of a status just reached, or null. */
  eventType: string | null;
  /** The payer's receipt is due (the invoice was just paid). */
  shouldSendReceipt: boolean;
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
 * the time → the next status and its effects. Final statuses never move, but money confirmed
 * after one (a late or extra payment) is still settled. A term that ends while a transfer is
 * still confirming does not cancel the invoice: the buyer paid in time. The fixed part of the
 * fee is taken with the first settlement only (again after a reorganisation took it all back).
 */
export function decideInvoice(state: InvoiceState, totals: TransferTotals, now: Date): InvoiceDecision {
  const step = nextStatus(state, totals, now);
  const isFinal = isFinalPaymentStatus(step.status);
  const isLateMoney = isFinalPaymentStatus(state.status);
  const receivedMinor = totals.confirmedMinor - state.settledMinor;
  const shouldSettle = isFinal && receivedMinor > 0n && (step.shouldSettle || isLateMoney);
  const fixedMinor = state.settledMinor === 0n ? state.fee.fixedMinor : 0n;
  const changed = step.status !== state.status;
  return {
    status: step.status,
    isFinal,
    settlement: shouldSettle ? { receivedMinor, feeMinor: platformFeeMinor(receivedMinor, state.fee.percentBps, fixedMinor) } : null,
    eventType: changed ? eventTypeOfStatus(step.status) : null,
    shouldSendReceipt: changed && (step.status === "paid" || step.status === "paid_over"),
  };
}

/** The status step alone, and whether reaching it settles what was received. */
function nextStatus(state: InvoiceState, totals: TransferTotals, now: Date): { status: PaymentStatus; shouldSettle: boolean } {
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
