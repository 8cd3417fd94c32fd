/** Where a payout stands (spec: Payout status, internal lifecycle). */
export type PayoutStatus =
  /** Created, waiting for approval (manual payouts). Its debit is reserved. */
  | "pending"
  /** Approved: waiting for its on-chain transfer to be signed (or for the hot wallet to hold enough). */
  | "approved"
  /** Its transfer is signed and stored, being broadcast. */
  | "broadcasting"
  /** A node took its transfer. */
  | "sent"
  /** Its transfer is in a block: the recipient has the money. Final. */
  | "confirmed"
  /** Rejected, or given up after repeated refusals: nothing was sent, the reserve is back. Final. */
  | "failed"
  /** Cancelled before approval: the reserve is back. Final. */
  | "cancelled";

export const PAYOUT_STATUSES: readonly PayoutStatus[] = ["pending", "approved", "broadcasting", "sent", "confirmed", "failed", "cancelled"];

/** Payouts that are paid or may still be: every one not failed or cancelled (spec: Refund summary counts these). */
export const LIVE_PAYOUT_STATUSES: PayoutStatus[] = ["pending", "approved", "broadcasting", "sent", "confirmed"];

/** What happened to it. */
export type PayoutFact =
  | { kind: "approve" }
  | { kind: "cancel" }
  | { kind: "reject" }
  /** Its current transfer was signed and stored. */
  | { kind: "transfer_signed" }
  /** A node took its current transfer. */
  | { kind: "transfer_broadcast" }
  /** Its current transfer is in a block. */
  | { kind: "transfer_confirmed" }
  /** Its current transfer is refused or dead and another attempt will follow. */
  | { kind: "transfer_dropped" }
  /** Its current transfer is refused or dead and no attempt will follow. */
  | { kind: "transfer_gave_up" }
  /**
   * What it returns is gone from the chain before any transfer of it was signed (a blocked
   * wallet's deposit that a reorganisation removed): it must not be sent.
   */
  | { kind: "source_reversed" };

/** What the balance does with the payout's debit when the status changes. */
export type PayoutLedgerEffect =
  /** payout_held → the outside world (and the fee to the platform). */
  | "pay"
  /** payout_held → available: nothing left. */
  | "release";

export interface PayoutDecision {
  status: PayoutStatus;
  ledger: PayoutLedgerEffect | null;
}

/** spec: Payout status — the coarse `status` of the object and of webhook bodies. */
export type CoarsePayoutStatus = "check" | "process" | "paid" | "fail" | "cancel";

/** Every internal status the interface names, including the 2-of-2 `awaiting_cosign` this service does not use. */
export type PayoutEventStatus = PayoutStatus | "awaiting_cosign";

const COARSE: Record<PayoutEventStatus, CoarsePayoutStatus> = {
  pending: "check",
  awaiting_cosign: "check",
  approved: "process",
  broadcasting: "process",
  sent: "process",
  confirmed: "paid",
  failed: "fail",
  cancelled: "cancel",
};

export function coarsePayoutStatus(status: PayoutEventStatus): CoarsePayoutStatus {
  return COARSE[status];
}

export function isFinalPayoutStatus(status: PayoutEventStatus): boolean {
  return status === "confirmed" || status === "failed" || status === "cancelled";
}

const SENDING: readonly PayoutStatus[] = ["approved", "broadcasting", "sent"];

/**
 * The payout lifecycle: the next status and what happens to the reserve, or null when the fact
 * does not apply (a stale report; the caller leaves the row as it is). A pending payout is
 * approved, rejected or cancelled; once approved it cannot be stopped, only sent (again after a
 * dropped attempt) or given up, and a final payout never moves.
 */
export function decidePayout(status: PayoutStatus, fact: PayoutFact): PayoutDecision | null {
  const to = (next: PayoutStatus, ledger: PayoutLedgerEffect | null = null): PayoutDecision => ({ status: next, ledger });
  switch (fact.kind) {
    case "approve":
      return status === "pending" ? to("approved") : null;
    case "cancel":
      return status === "pending" ? to("cancelled", "release") : null;
    case "reject":
      return status === "pending" ? to("failed", "release") : null;
    case "transfer_signed":
      return status === "approved" ? to("broadcasting") : null;
    case "transfer_broadcast":
      return status === "approved" || status === "broadcasting" ? to("sent") : null;
    case "transfer_confirmed":
      return SENDING.includes(status) ? to("confirmed", "pay") : null;
    case "transfer_dropped":
      return status === "broadcasting" || status === "sent" ? to("approved") : null;
    case "transfer_gave_up":
      return SENDING.includes(status) ? to("failed", "release") : null;
    // Only while nothing is signed: a signed transaction may land, and then the payout is paid.
    case "source_reversed":
      return status === "approved" ? to("failed", "release") : null;
  }
}

/** Where an outgoing transfer stands, as far as its payout cares. */
export type TransferProgress = "planned" | "signed" | "broadcast" | "confirmed" | "dropped";

/**
 * The facts a payout in `status` goes through to catch up with its transfer, in order, so that
 * each status it passes is entered (and announced) once even when a pass saw several steps at once.
 */
export function factsToCatchUp(status: PayoutStatus, transfer: TransferProgress): PayoutFact["kind"][] {
  const rank: Record<string, number> = { approved: 0, broadcasting: 1, sent: 2 };
  const at = rank[status];
  if (at === undefined) return [];
  switch (transfer) {
    case "planned":
      return [];
    case "signed":
      return at < 1 ? ["transfer_signed"] : [];
    case "broadcast":
      return (["transfer_signed", "transfer_broadcast"] as const).slice(at);
    case "confirmed":
      return (["transfer_signed", "transfer_broadcast", "transfer_confirmed"] as const).slice(at);
    case "dropped":
      return [];
  }
}
