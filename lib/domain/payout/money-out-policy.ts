/**
 * The one policy every kind of money out passes before its payout is written: the freeze after a
 * control changed, four eyes by person, and the owner's thresholds. Pure: the caller reads the
 * facts (under the balance's lock, so `spentLastDay` cannot move underneath) and writes what this
 * decides.
 */

/** Every way money leaves a merchant's balance. */
export type MoneyOutKind =
  /** POST /v1/payout, mass and batch, the CLI: made with a credential, approved at once. */
  | "api_payout"
  /** The cabinet's payout form and transfers to a personal wallet: always a second person. */
  | "manual_payout"
  /** A payment's refund. */
  | "refund"
  /** A blocked static wallet's held deposits sent back. */
  | "wallet_refund"
  /** A payout link claimed by its recipient. */
  | "link_claim"
  /** A partner's split share to its external address. */
  | "split"
  /** A credited deposit withdrawn to the merchant's auto-withdraw address. */
  | "auto_withdraw";

export const MONEY_OUT_KINDS: readonly MoneyOutKind[] = ["api_payout", "manual_payout", "refund", "wallet_refund", "link_claim", "split", "auto_withdraw"];

/** Kinds a person asks for in a request: refused while frozen (the caller retries after it lifts). */
const REQUESTED: ReadonlySet<MoneyOutKind> = new Set(["api_payout", "manual_payout", "refund", "wallet_refund"]);

/** The owner's amounts for one asset, in its minor units, above which a second person approves. */
export interface MoneyOutThreshold {
  /** One payout's debit; null: no limit per payout. */
  perPayout: bigint | null;
  /** All money out started within 24 hours, this one included; null: no daily limit. */
  perDay: bigint | null;
}

export interface MoneyOutFacts {
  kind: MoneyOutKind;
  /** Back to the address that paid (a refund, a wallet refund): never a drain, never held back. */
  isToPayer: boolean;
  /** When the freeze lifts (a new credential that moves money, a changed destination or threshold); null when none. */
  frozenUntil: Date | null;
  debit: bigint;
  threshold: MoneyOutThreshold | null;
  /** Debits of the merchant's money out of this asset started in the last 24 hours and not failed or cancelled. */
  spentLastDay: bigint;
  /** Whether a person other than the one asking may approve (a member with the money permission, the operator). */
  hasOtherApprover: boolean;
  /** How long money out that needs a second person waits instead in a store with nobody else to approve it. */
  waitingPeriodMs: number;
  now: Date;
}

export type MoneyOutDecision =
  /** Refused: the caller answers `payout.frozen` until `liftsAt`. */
  | { outcome: "frozen"; liftsAt: Date }
  | { outcome: "approved" }
  /** Pending until a second person approves (or rejects) it. */
  | { outcome: "needs_approval"; reason: MoneyOutHoldReason }
  /** Pending, approved by the service at `until` unless a second person decides first (or it is cancelled). */
  | { outcome: "waits"; until: Date; reason: MoneyOutHoldReason };

export type MoneyOutHoldReason = "manual" | "threshold" | "freeze";

export function decideMoneyOut(facts: MoneyOutFacts): MoneyOutDecision {
  if (facts.isToPayer) return { outcome: "approved" };
  const unfrozen = decideUnfrozen(facts);
  const frozenUntil = facts.frozenUntil;
  if (!frozenUntil || frozenUntil <= facts.now) return unfrozen;
  if (REQUESTED.has(facts.kind)) return { outcome: "frozen", liftsAt: frozenUntil };
  // Nobody is asking on an automatic kind, so it is held instead of refused — and the freeze only
  // adds to what the rest of the policy asks: a second person stays a second person, a waiting
  // period ends no sooner than the freeze.
  if (unfrozen.outcome === "needs_approval") return unfrozen;
  if (unfrozen.outcome === "waits") return unfrozen.until >= frozenUntil ? unfrozen : { ...unfrozen, until: frozenUntil };
  return { outcome: "waits", until: frozenUntil, reason: "freeze" };
}

/** The decision without the freeze: four eyes for manual payouts, the owner's thresholds. */
function decideUnfrozen(facts: MoneyOutFacts): Exclude<MoneyOutDecision, { outcome: "frozen" }> {
  const reason: MoneyOutHoldReason | null = facts.kind === "manual_payout" ? "manual" : isAboveThreshold(facts) ? "threshold" : null;
  if (reason === null) return { outcome: "approved" };
  if (facts.hasOtherApprover) return { outcome: "needs_approval", reason };
  return { outcome: "waits", until: new Date(facts.now.getTime() + facts.waitingPeriodMs), reason };
}

function isAboveThreshold(facts: Pick<MoneyOutFacts, "threshold" | "debit" | "spentLastDay">): boolean {
  if (!facts.threshold) return false;
  const { perPayout, perDay } = facts.threshold;
  return (perPayout !== null && facts.debit > perPayout) || (perDay !== null && facts.spentLastDay + facts.debit > perDay);
}
