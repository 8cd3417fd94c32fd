import { describe, expect, it } from "vitest";
import { depositConfirmedJournal, invoiceSettledJournal, isBalanced, lotMaturedJournal, mayGoNegative, reversalJournal } from "./postings";

describe("journals", () => {
  const base = { merchantId: "m1", asset: "USDT:tron" };

  it("credits a confirmed deposit from the chain into incoming", () => {
    const journal = depositConfirmedJournal({ ...base, transferId: "t1", blockHash: "h1", amount: 10_000_000n });
    expect(journal.reference).toBe("transfer:t1:confirmed:h1");
    expect(isBalanced(journal)).toBe(true);
    expect(journal.postings.map((p) => [p.account.owner, p.account.bucket, p.amount])).toEqual([
      ["platform", "chain", -10_000_000n],
      ["m1", "incoming", 10_000_000n],
    ]);
  });

  it.each([
    [10_000_000n, 450_000n, 9_550_000n, 450_000n],
    [100n, 450_000n, 0n, 100n],
    [5n, 0n, 5n, 0n],
  ])("settles %s received with fee %s: %s matures, %s to the platform", (received, fee, matures, taken) => {
    const journal = invoiceSettledJournal({ ...base, invoiceId: "i1", settlement: 0, received, fee });
    expect(isBalanced(journal)).toBe(true);
    expect(journal.postings.find((p) => p.account.bucket === "maturing")!.amount).toBe(matures);
    expect(journal.postings.find((p) => p.account.bucket === "fees")?.amount ?? 0n).toBe(taken);
  });

  it("matures and reverses with balanced journals", () => {
    const matured = lotMaturedJournal({ ...base, lotId: "l1", amount: 7n });
    expect(isBalanced(matured)).toBe(true);
    const reversed = reversalJournal(depositConfirmedJournal({ ...base, transferId: "t2", blockHash: "h2", amount: 9n }), "reorg");
    expect(isBalanced(reversed)).toBe(true);
    expect(reversed.reference).toBe("transfer:t2:confirmed:h2:reversed");
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
  });
});
