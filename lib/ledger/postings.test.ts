import { describe, expect, it } from "vitest";
import {
  debtRepaymentJournal,
  depositConfirmedJournal,
  invoiceSettledJournal,
  isBalanced,
  lotMaturedJournal,
  mayGoNegative,
  movedToColdJournal,
  payoutReleasedJournal,
  payoutReservedJournal,
  reversalJournal,
  settlementClawbackJournal,
  walletDepositSettledJournal,
} from "./postings";

describe("journals", () => {
  const base = { merchantId: "m1", asset: "USDT:tron" };

  it("credits a confirmed deposit from the chain into incoming", () => {
    const journal = depositConfirmedJournal({ ...base, transferId: "t1", credit: 1, amount: 10_000_000n });
    expect(journal.reference).toBe("transfer:t1:credit:1");
    expect(isBalanced(journal)).toBe(true);
    expect(journal.postings.map((p) => [p.account.owner, p.account.bucket, p.amount])).toEqual([
      ["platform", "chain", -10_000_000n],
      ["m1", "incoming", 10_000_000n],
    ]);
  });

  describe.each<[string, string, (received: bigint, fee: bigint) => ReturnType<typeof invoiceSettledJournal>]>([
    ["an invoice", "invoice:i1:settle:0", (received, fee) => invoiceSettledJournal({ ...base, invoiceId: "i1", settlement: 0, received, fee })],
    ["a static wallet's deposit, at once", "transfer:t4:settle:2", (received, fee) => walletDepositSettledJournal({ ...base, transferId: "t4", credit: 2, received, fee })],
  ])("settling %s", (_name, reference, settle) => {
    it.each([
      [10_000_000n, 450_000n, 9_550_000n, 450_000n],
      [100n, 450_000n, 0n, 100n],
      [5n, 0n, 5n, 0n],
    ])("of %s received with fee %s: %s matures, %s to the platform", (received, fee, matures, taken) => {
      const journal = settle(received, fee);
      expect(journal.reference).toBe(reference);
      expect(isBalanced(journal)).toBe(true);
      expect(journal.postings.find((p) => p.account.bucket === "incoming")!.amount).toBe(-received);
      expect(journal.postings.find((p) => p.account.bucket === "maturing")!.amount).toBe(matures);
      expect(journal.postings.find((p) => p.account.bucket === "fees")?.amount ?? 0n).toBe(taken);
    });
  });

  it("holds a deposit to a blocked static wallet, reserves it for its refund and takes it back when the refund fails", () => {
    const held = depositConfirmedJournal({ ...base, transferId: "t3", credit: 1, amount: 60n * 10n ** 18n, into: "blocked_held" });
    expect([held.reference, held.kind]).toEqual(["transfer:t3:credit:1", "deposit_held"]);
    expect(held.postings.map((p) => [p.account.owner, p.account.bucket, p.amount])).toEqual([
      ["platform", "chain", -(60n * 10n ** 18n)],
      ["m1", "blocked_held", 60n * 10n ** 18n],
    ]);
    const reserved = payoutReservedJournal({ ...base, payoutId: "p1", debit: 60n, from: "blocked_held" });
    expect([reserved.reference, ...reserved.postings.map((p) => `${p.account.bucket} ${p.amount}`)]).toEqual(["payout:p1:reserve", "blocked_held -60", "payout_held 60"]);
    const released = payoutReleasedJournal({ ...base, payoutId: "p1", debit: 60n, to: "blocked_held" });
    expect(released.postings.map((p) => `${p.account.bucket} ${p.amount}`)).toEqual(["payout_held -60", "blocked_held 60"]);
  });

  it("matures and reverses with balanced journals", () => {
    const matured = lotMaturedJournal({ ...base, lotId: "l1", amount: 7n });
    expect(isBalanced(matured)).toBe(true);
    const reversed = reversalJournal(depositConfirmedJournal({ ...base, transferId: "t2", credit: 2, amount: 9n }), "reorg");
    expect(isBalanced(reversed)).toBe(true);
    expect(reversed.reference).toBe("transfer:t2:credit:2:reversed");
    expect(reversed.postings[0].amount).toBe(9n);
  });

  it("refuses unbalanced and single-posting journals", () => {
    expect(isBalanced({ postings: [{ account: { owner: "m", asset: "A:x", bucket: "available" }, amount: 0n }] })).toBe(false);
    expect(
      isBalanced({
        postings: [
          { account: { owner: "m", asset: "A:x", bucket: "available" }, amount: 5n },
          { account: { owner: "m", asset: "B:x", bucket: "available" }, amount: -5n },
        ],
      }),
    ).toBe(false);
  });

  it("lets only the platform's chain account go negative", () => {
    expect(mayGoNegative({ owner: "platform", asset: "A:x", bucket: "chain" })).toBe(true);
    expect(mayGoNegative({ owner: "platform", asset: "A:x", bucket: "fees" })).toBe(false);
    expect(mayGoNegative({ owner: "m", asset: "A:x", bucket: "available" })).toBe(false);
    expect(mayGoNegative({ owner: "m", asset: "A:x", bucket: "debt" })).toBe(true);
    expect(mayGoNegative({ owner: "platform", asset: "A:x", bucket: "cold" })).toBe(true);
  });

  it.each([
    [1n, "USDT:tron"],
    [2_500_000_000n, "USDT:tron"],
    [123_456_789_012_345_678_901n, "ETH:ethereum"],
  ])("moves %s to cold storage out of the chain account, once per transfer", (amount, asset) => {
    const journal = movedToColdJournal({ transferId: "o1", asset, amount });
    expect(journal).toMatchObject({ reference: "outgoing:o1:cold", kind: "moved_to_cold" });
    expect(isBalanced(journal)).toBe(true);
    expect(journal.postings.map((p) => [p.account.owner, p.account.bucket, p.account.asset, p.amount])).toEqual([
      ["platform", "chain", asset, amount],
      ["platform", "cold", asset, -amount],
    ]);
  });

  it("refuses a move to cold storage of nothing", () => {
    expect(() => movedToColdJournal({ transferId: "o1", asset: "USDT:tron", amount: 0n })).toThrow(RangeError);
  });

  it.each([
    // received, fee, from maturing, from available → debt
    [1_000n, 30n, 970n, 0n, 0n],
    [1_000n, 30n, 500n, 400n, -70n],
    [1_000n, 30n, 0n, 0n, -970n],
    [5n, 0n, 0n, 5n, 0n],
  ])("claws back %s received (fee %s) from maturing %s and available %s, the rest %s as debt", (received, fee, maturing, available, debt) => {
    const journal = settlementClawbackJournal({ ...base, reference: "r", received, fee, taken: { maturing, available } });
    expect(isBalanced(journal)).toBe(true);
    const amountOf = (bucket: string) => journal.postings.find((p) => p.account.bucket === bucket)?.amount ?? 0n;
    expect([amountOf("incoming"), amountOf("fees"), amountOf("maturing"), amountOf("available"), amountOf("debt")]).toEqual([received, -fee, -maturing, -available, debt]);
  });

  it("refuses a clawback that takes more than the merchant's share", () => {
    expect(() => settlementClawbackJournal({ ...base, reference: "r", received: 10n, fee: 1n, taken: { maturing: 9n, available: 1n } })).toThrow(RangeError);
    expect(() => settlementClawbackJournal({ ...base, reference: "r", received: 10n, fee: 11n, taken: { maturing: 0n, available: 0n } })).toThrow(RangeError);
  });

  it("repays debt from available", () => {
    const journal = debtRepaymentJournal({ ...base, reference: "lot:l1:debt", amount: 40n });
    expect(isBalanced(journal)).toBe(true);
    expect(journal.postings.map((p) => [p.account.bucket, p.amount])).toEqual([["available", -40n], ["debt", 40n]]);
  });
});
