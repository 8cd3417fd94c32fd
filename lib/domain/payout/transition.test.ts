import { describe, expect, it } from "vitest";
import { coarsePayoutStatus, decidePayout, factsToCatchUp, isFinalPayoutStatus, PAYOUT_STATUSES, type PayoutFact, type PayoutStatus } from "./transition";
import { computePayoutAmounts, judgeReserve } from "./amounts";

describe("decidePayout", () => {
  it.each<[PayoutStatus, PayoutFact["kind"], PayoutStatus | null, string | null]>([
    ["pending", "approve", "approved", null],
    ["pending", "cancel", "cancelled", "release"],
    ["pending", "reject", "failed", "release"],
    ["approved", "transfer_signed", "broadcasting", null],
    ["approved", "transfer_broadcast", "sent", null],
    ["broadcasting", "transfer_broadcast", "sent", null],
    ["sent", "transfer_confirmed", "confirmed", "pay"],
    ["approved", "transfer_confirmed", "confirmed", "pay"],
    ["sent", "transfer_dropped", "approved", null],
    ["broadcasting", "transfer_dropped", "approved", null],
    ["sent", "transfer_gave_up", "failed", "release"],
    ["approved", "transfer_gave_up", "failed", "release"],
    // What it returns vanished before anything was signed: it fails, its reserve comes back.
    ["approved", "source_reversed", "failed", "release"],
    // Once signed it may land: it goes on.
    ["broadcasting", "source_reversed", null, null],
    ["sent", "source_reversed", null, null],
    ["pending", "source_reversed", null, null],
    // Once approved a payout cannot be cancelled or approved again; a pending one is not sent.
    ["approved", "cancel", null, null],
    ["approved", "approve", null, null],
    ["sent", "reject", null, null],
    ["pending", "transfer_signed", null, null],
    ["pending", "transfer_confirmed", null, null],
    ["approved", "transfer_dropped", null, null],
  ])("%s + %s → %s (%s)", (status, fact, next, ledger) => {
    const decision = decidePayout(status, { kind: fact } as PayoutFact);
    if (next === null) expect(decision).toBeNull();
    else expect(decision).toEqual({ status: next, ledger });
  });

  it("never moves a final payout, so its reserve is paid or released at most once", () => {
    const facts: PayoutFact["kind"][] = ["approve", "cancel", "reject", "transfer_signed", "transfer_broadcast", "transfer_confirmed", "transfer_dropped", "transfer_gave_up", "source_reversed"];
    for (const status of PAYOUT_STATUSES.filter(isFinalPayoutStatus)) {
      for (const fact of facts) expect(decidePayout(status, { kind: fact } as PayoutFact)).toBeNull();
    }
  });

  it("maps every internal status to the coarse one of the interface", () => {
    expect(PAYOUT_STATUSES.map(coarsePayoutStatus)).toEqual(["check", "process", "process", "process", "paid", "fail", "cancel"]);
    expect(coarsePayoutStatus("awaiting_cosign")).toBe("check");
  });
});

describe("factsToCatchUp", () => {
  it("passes every status in between, once", () => {
    expect(factsToCatchUp("approved", "confirmed")).toEqual(["transfer_signed", "transfer_broadcast", "transfer_confirmed"]);
    expect(factsToCatchUp("broadcasting", "confirmed")).toEqual(["transfer_broadcast", "transfer_confirmed"]);
    expect(factsToCatchUp("sent", "broadcast")).toEqual([]);
    expect(factsToCatchUp("approved", "signed")).toEqual(["transfer_signed"]);
    expect(factsToCatchUp("approved", "planned")).toEqual([]);
    expect(factsToCatchUp("confirmed", "confirmed")).toEqual([]);
    expect(factsToCatchUp("pending", "confirmed")).toEqual([]);
  });
});

describe("computePayoutAmounts", () => {
  it("puts the fee on top, or takes it from the amount", () => {
    expect(computePayoutAmounts({ requested: 1000n, fee: 30n, isSubtract: true })).toEqual({ amount: 1000n, fee: 30n, debit: 1030n });
    expect(computePayoutAmounts({ requested: 1000n, fee: 30n, isSubtract: false })).toEqual({ amount: 970n, fee: 30n, debit: 1000n });
    expect(computePayoutAmounts({ requested: 30n, fee: 30n, isSubtract: false })).toBe("below_fee");
    expect(computePayoutAmounts({ requested: 30n, fee: 30n, isSubtract: true })).toEqual({ amount: 30n, fee: 30n, debit: 60n });
    expect(computePayoutAmounts({ requested: 1n, fee: 0n, isSubtract: false })).toEqual({ amount: 1n, fee: 0n, debit: 1n });
  });
});

describe("judgeReserve", () => {
  it("pays from available only, tells maturing funds from missing ones, and refuses a debtor", () => {
    expect(judgeReserve({ available: 100n, maturing: 0n, debt: 0n }, 100n)).toBe("ok");
    expect(judgeReserve({ available: 60n, maturing: 40n, debt: 0n }, 100n)).toBe("funds_maturing");
    expect(judgeReserve({ available: 60n, maturing: 39n, debt: 0n }, 100n)).toBe("insufficient_funds");
    expect(judgeReserve({ available: 1000n, maturing: 0n, debt: -1n }, 1n)).toBe("in_debt");
  });
});
