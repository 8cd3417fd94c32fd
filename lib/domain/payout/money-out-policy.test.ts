import { describe, expect, it } from "vitest";
import { decideMoneyOut, MONEY_OUT_KINDS, type MoneyOutFacts, type MoneyOutKind } from "./money-out-policy";

const now = new Date("2026-12-01T12:00:00Z");
const hour = 3_600_000;
const base: Omit<MoneyOutFacts, "kind"> = {
  isToPayer: false,
  frozenUntil: null,
  debit: 100n,
  threshold: null,
  spentLastDay: 0n,
  hasOtherApprover: true,
  waitingPeriodMs: 24 * hour,
  now,
};
const frozen = { frozenUntil: new Date(now.getTime() + hour) };
const waitEnds = new Date(now.getTime() + 24 * hour);

// Every kind of money out through every rule: what it becomes.
const table: { kind: MoneyOutKind; facts: Partial<MoneyOutFacts>; expected: ReturnType<typeof decideMoneyOut> }[] = MONEY_OUT_KINDS.flatMap((kind) => {
  const isRequested = ["api_payout", "manual_payout", "refund", "wallet_refund"].includes(kind);
  const plain = kind === "manual_payout" ? { outcome: "needs_approval" as const, reason: "manual" as const } : { outcome: "approved" as const };
  const rows: { kind: MoneyOutKind; facts: Partial<MoneyOutFacts>; expected: ReturnType<typeof decideMoneyOut> }[] = [
    { kind, facts: {}, expected: plain },
    { kind, facts: frozen, expected: isRequested ? { outcome: "frozen", liftsAt: frozen.frozenUntil } : { outcome: "waits", until: frozen.frozenUntil, reason: "freeze" } },
    // A freeze that lifted is no freeze.
    { kind, facts: { frozenUntil: new Date(now.getTime() - 1) }, expected: plain },
    { kind, facts: { threshold: { perPayout: 99n, perDay: null } }, expected: { outcome: "needs_approval", reason: kind === "manual_payout" ? "manual" : "threshold" } },
    { kind, facts: { threshold: { perPayout: 100n, perDay: null } }, expected: plain },
    { kind, facts: { threshold: { perPayout: null, perDay: 500n }, spentLastDay: 401n }, expected: { outcome: "needs_approval", reason: kind === "manual_payout" ? "manual" : "threshold" } },
    { kind, facts: { threshold: { perPayout: null, perDay: 500n }, spentLastDay: 400n }, expected: plain },
    // Nobody else to approve: a waiting period instead of a second person.
    { kind, facts: { threshold: { perPayout: 1n, perDay: null }, hasOtherApprover: false }, expected: { outcome: "waits", until: waitEnds, reason: kind === "manual_payout" ? "manual" : "threshold" } },
  ];
  if (!isRequested) {
    // A freeze adds to the rest: above a threshold it still waits for a second person, and a
    // waiting period ends no sooner than the freeze.
    rows.push({ kind, facts: { ...frozen, threshold: { perPayout: 1n, perDay: null } }, expected: { outcome: "needs_approval", reason: "threshold" } });
    rows.push({ kind, facts: { ...frozen, threshold: { perPayout: 1n, perDay: null }, hasOtherApprover: false }, expected: { outcome: "waits", until: waitEnds, reason: "threshold" } });
    rows.push({ kind, facts: { frozenUntil: new Date(now.getTime() + 48 * hour), threshold: { perPayout: 1n, perDay: null }, hasOtherApprover: false }, expected: { outcome: "waits", until: new Date(now.getTime() + 48 * hour), reason: "threshold" } });
  }
  if (kind === "refund" || kind === "wallet_refund") {
    // Back to the address that paid: nothing holds it back.
    rows.push({ kind, facts: { ...frozen, isToPayer: true, threshold: { perPayout: 1n, perDay: 1n } }, expected: { outcome: "approved" } });
  }
  return rows;
});

describe("the money-out policy", () => {
  it.each(table.map((row) => [row.kind, JSON.stringify(row.facts, (_, value) => (typeof value === "bigint" ? value.toString() : value)), row] as const))("%s with %s", (_kind, _facts, row) => {
    expect(decideMoneyOut({ ...base, ...row.facts, kind: row.kind })).toEqual(row.expected);
  });

  it("holds a manual payout for a second person even without a threshold, and makes a single-person store wait instead", () => {
    expect(decideMoneyOut({ ...base, kind: "manual_payout" })).toEqual({ outcome: "needs_approval", reason: "manual" });
    expect(decideMoneyOut({ ...base, kind: "manual_payout", hasOtherApprover: false })).toEqual({ outcome: "waits", until: waitEnds, reason: "manual" });
  });
});
