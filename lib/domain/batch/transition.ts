/** What a batch creates. */
export type BatchKind = "payment" | "payout" | "refund";

/** Where one element of a batch stands. spec: Batch and item status. */
export type BatchItemStatus =
  /** Not started. */
  | "pending"
  /** Being created; a crash leaves it here, and the next run finishes it (its id is derived from its position). */
  | "processing"
  /** Created: its result is the single call's answer. */
  | "done"
  /** Refused, failed, or skipped after a `stop` batch's failure. */
  | "error";

/** What happened to an element. */
export type BatchItemFact = "started" | "succeeded" | "failed" | "skipped";

/**
 * The element lifecycle: pending → processing → done or error; a `stop` batch skips what has not
 * finished. The statuses a fact may move an element from are given with the next status, so the
 * caller updates only rows still in one of them (a repeated or stale report changes nothing).
 */
export function decideBatchItem(fact: BatchItemFact): { from: BatchItemStatus[]; to: BatchItemStatus } {
  switch (fact) {
    case "started":
      return { from: ["pending"], to: "processing" };
    case "succeeded":
      return { from: ["pending", "processing"], to: "done" };
    case "failed":
    case "skipped":
      return { from: ["pending", "processing"], to: "error" };
  }
}

/** Where a batch stands: pending → processing (claimed by a worker, under a lease) → completed. */
export type BatchStatus = "pending" | "processing" | "completed";
