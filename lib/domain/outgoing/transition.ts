/** Where an outgoing transfer stands. */
export type OutgoingStatus =
  /** Recorded with its purpose; nothing signed yet. */
  | "planned"
  /** Signed; its bytes and the resources they consume are stored; the node has not yet taken it. */
  | "signed"
  /** A node took it (now or before); not yet seen in a block or the mempool by a later look. */
  | "broadcast"
  /** Pending in the mempool. */
  | "seen"
  /** In a block with enough confirmations; its fee is booked. */
  | "confirmed"
  /** Refused for good before reaching the chain, or mined and reverted: nothing moved. */
  | "failed"
  /** Provably dead (its nonce, seqno or inputs used by another, its lifetime over): nothing moved. */
  | "replaced";

/** What happened to it. */
export type OutgoingFact =
  | { kind: "signed" }
  | { kind: "broadcast_accepted" }
  | { kind: "broadcast_refused" }
  | { kind: "sign_refused" }
  /** Its purpose was called off before it was signed. */
  | { kind: "withdrawn" }
  | { kind: "pending" }
  | { kind: "confirmed" }
  | { kind: "reverted" }
  | { kind: "dead" };

/** The next status, and whether the resources it held (nonce, seqno, outpoints) go back. */
export interface OutgoingDecision {
  status: OutgoingStatus;
  shouldReleaseResources: boolean;
  /** The chain took a fee for it (mined, even if reverted): book it. */
  shouldBookFee: boolean;
}

const FINAL: ReadonlySet<OutgoingStatus> = new Set(["confirmed", "failed", "replaced"]);

export function isFinalOutgoingStatus(status: OutgoingStatus): boolean {
  return FINAL.has(status);
}

/** Statuses whose transaction holds chain resources and may still land. */
export const IN_FLIGHT_OUTGOING_STATUSES: readonly OutgoingStatus[] = ["signed", "broadcast", "seen"];

/**
 * The lifecycle of an outgoing transfer: the status after `fact`, or null when the fact does
 * not apply in this status (a stale worker's report; the caller leaves the row as it is).
 * Signing happens only from planned; a signed transfer can only be broadcast again, never signed
 * anew, until the chain proves it dead.
 */
export function decideOutgoingTransfer(status: OutgoingStatus, fact: OutgoingFact): OutgoingDecision | null {
  const to = (next: OutgoingStatus, options: { release?: boolean; fee?: boolean } = {}): OutgoingDecision => ({
    status: next,
    shouldReleaseResources: options.release ?? false,
    shouldBookFee: options.fee ?? false,
  });
  switch (fact.kind) {
    case "signed":
      return status === "planned" ? to("signed") : null;
    case "sign_refused":
    case "withdrawn":
      return status === "planned" ? to("failed") : null;
    case "broadcast_accepted":
      return status === "signed" ? to("broadcast") : null;
    // Refused for good and unknown to the chain: the bytes never landed, their resources are free.
    case "broadcast_refused":
      return status === "signed" ? to("failed", { release: true }) : null;
    case "pending":
      return status === "signed" || status === "broadcast" ? to("seen") : null;
    case "confirmed":
      return IN_FLIGHT_OUTGOING_STATUSES.includes(status) ? to("confirmed", { release: true, fee: true }) : null;
    // Mined but reverted: its fee is spent, nothing else moved; the nonce stays used.
    case "reverted":
      return IN_FLIGHT_OUTGOING_STATUSES.includes(status) ? to("failed", { release: true, fee: true }) : null;
    case "dead":
      return IN_FLIGHT_OUTGOING_STATUSES.includes(status) ? to("replaced", { release: true }) : null;
  }
}
