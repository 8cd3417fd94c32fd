import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { callSigned, getTestDb, makeMerchant } from "@/lib/testing/harness";
import { auditLedgerIn, CLEAN_LEDGER_AUDIT, type LedgerAudit } from "./audit";
import type { Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";

class RollBack extends Error {}

/** Runs the audit over drift made inside a transaction that is then rolled back: nobody else ever sees it. */
async function auditWithDrift(makeDrift: (tx: Tx) => Promise<unknown>): Promise<LedgerAudit> {
  let report: LedgerAudit | undefined;
  await withTransaction(getTestDb(), async (tx) => {
      await makeDrift(tx);
      report = await auditLedgerIn(tx);
      throw new RollBack();
    })
    .catch((error) => {
      if (!(error instanceof RollBack)) throw error;
    });
  return report!;
}

describe("the ledger audit", () => {
  it("finds each kind of drift between the books and the state they pay for", async () => {
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
    const now = new Date();
    const transferId = randomUUID();
    const outgoingId = randomUUID();
    const report = await auditWithDrift(async (tx) => {
      const accountId = randomUUID();
      await tx.ledgerAccount.create({ data: { id: accountId, owner: merchant.merchantId, asset: "USDT:tron", bucket: "available", balance: "5" } });
      const journalId = randomUUID();
      await tx.ledgerJournal.create({ data: { id: journalId, reference: `test:${journalId}`, kind: "test" } });
      await tx.ledgerPosting.create({ data: { id: randomUUID(), journalId, accountId, amount: "5" } });
      await tx.ledgerAccount.create({ data: { id: randomUUID(), owner: merchant.merchantId, asset: "USDC:tron", bucket: "available", balance: "3" } });
      await tx.chainTransfer.create({
        data: { id: transferId, network: "tron", currency: "USDT", txid: randomUUID(), position: 0, toAddress: invoice.address, amountMinor: "1000", status: "confirmed", credits: 1, invoiceId: invoice.uuid },
      });
      await tx.invoice.update({ where: { id: invoice.uuid }, data: { settledMinor: "7" } });
      await tx.maturityLot.create({ data: { id: randomUUID(), merchantId: merchant.merchantId, asset: "USDT:tron", amount: "9", maturesAt: now, reference: `test:${randomUUID()}` } });
      await tx.outgoingTransfer.create({
        data: {
          id: outgoingId,
          kind: "sweep",
          reference: `test:${outgoingId}`,
          network: "tron",
          currency: "USDT",
          fromAddress: invoice.address,
          fromIndex: 1,
          toAddress: invoice.address,
          amountMinor: "1",
          coveredMinor: "1",
          feeMinor: "100",
          txid: randomUUID(),
          rawTransaction: "{}",
          status: "confirmed",
        },
      });
    });
    expect(report.mismatched).toContainEqual({ accountId: expect.any(String), cached: 3n, fromPostings: 0n });
    expect(report.unbalancedJournals.some((reference) => reference.startsWith("test:"))).toBe(true);
    expect(report.transfersVsCredits).toContain(transferId);
    expect(report.settledVsJournals).toContain(invoice.uuid);
    expect(report.lotsVsMaturing).toContain(`${merchant.merchantId}|USDT:tron`);
    expect(report.outgoingVsFees).toContain(outgoingId);
  });

  it("finds a static wallet's deposit credited without its journals, and blocked_held apart from the deposits held", async () => {
    const merchant = await makeMerchant();
    const wallet = (await callSigned("/v1/wallet", { currency: "USDT", network: "tron", order_id: "audited" }, merchant)).body.result;
    const transferId = randomUUID();
    const report = await auditWithDrift(async (tx) => {
      await tx.chainTransfer.create({
        data: { id: transferId, network: "tron", currency: "USDT", txid: randomUUID(), position: 0, toAddress: wallet.address, amountMinor: "1000", status: "confirmed", credits: 1, isHeld: true, staticWalletId: wallet.uuid },
      });
    });
    expect(report.transfersVsCredits).toContain(transferId);
    expect(report.blockedVsHeld).toContain(`${merchant.merchantId}|USDT:tron`);
  });

  it("has the database refuse a merchant bucket below zero and a debt above it", async () => {
    const merchant = await makeMerchant();
    for (const [bucket, balance] of [
      ["available", "-1"],
      ["maturing", "-1"],
      ["debt", "1"],
    ]) {
      await expect(
        getTestDb().ledgerAccount.create({ data: { id: randomUUID(), owner: merchant.merchantId, asset: "USDT:tron", bucket, balance } }),
      ).rejects.toThrow(/ledger_accounts_sign_check/);
    }
    await expect(getTestDb().ledgerAccount.create({ data: { id: randomUUID(), owner: merchant.merchantId, asset: "USDT:tron", bucket: "savings" } })).rejects.toThrow(
      /ledger_accounts_bucket_check/,
    );
  });

  it("answers clean for books that agree with themselves", async () => {
    const report = await auditWithDrift(async () => undefined);
    expect(report).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
