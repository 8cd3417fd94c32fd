import type { PaymentStatus } from "./status";

/** What a merchant (or its autorefund setting) decides about a payment whose amount was off. */
export type ResolutionAction = "accept" | "refund";

/** How a payment that needed a decision was settled. */
export type Resolution =
  /** Accepted as it is: an underpayment counts as paid, an overpayment's excess is kept. */
  | "accepted"
  /** What was received (underpaid) or the excess (overpaid) goes back to the payer. */
  | "refunded";

/**
 * A payment needs a decision when it ended underpaid (`wrong_amount`) or overpaid beyond
 * tolerance (`paid_over`), once. Accepting an underpayment makes it `paid`; the rest keeps
 * its status. What a refund returns: everything received, or only the excess.
 */
export function decideResolution(
  state: { status: PaymentStatus; resolution: string | null },
  action: ResolutionAction,
): { status: PaymentStatus; resolution: Resolution; refund: "everything" | "excess" | null } | null {
  if (state.resolution !== null) return null;
  if (state.status === "wrong_amount") {
    return action === "accept" ? { status: "paid", resolution: "accepted", refund: null } : { status: "wrong_amount", resolution: "refunded", refund: "everything" };
  }
  if (state.status === "paid_over") {
    return action === "accept" ? { status: "paid_over", resolution: "accepted", refund: null } : { status: "paid_over", resolution: "refunded", refund: "excess" };
  }
  return null;
}
