import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { createSandboxAdapter } from "@/lib/chains/sandbox/sandbox-chain";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { fundMerchant } from "@/lib/testing/funding";
import { addApiKey, callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";

// A blocked static wallet's held deposit that a reorganisation removes while its refund is on the
// way (USDT on the tron sandbox chain, whose blocks the test rewrites as a reorganisation would):
// a refund not yet signed is stopped and the rest held again; a refund already sent goes its way
// and the merchant who directed it covers the vanished deposit. The ledger audit stays clean.

const REFUND_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

async function blockedWallet(merchant: TestMerchant) {
  const wallet = (await callSigned("/v1/wallet", { currency: "USDT", network: "tron", order_id: `reorg-${Math.random().toString(36).slice(2)}` }, merchant)).body.result;
  await callSigned("/v1/wallet/block", { uuid: wallet.uuid }, merchant);
  return wallet as { uuid: string; address: string };
}

/** A deposit to the wallet mined deep; its own block, so a reorganisation can take it alone. */
async function deposit(merchant: TestMerchant, address: string, amount: string): Promise<string> {
  const sent = await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address, amount }, merchant);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
  return sent.body.result.txid;
}

/** The block holding the transaction is replaced by one without it. */
async function reorganiseAway(txid: string): Promise<void> {
  const db = getTestDb();
  const transfer = await db.chainTransfer.findFirstOrThrow({ where: { txid } });
  await db.sandboxTransaction.delete({ where: { txid } });
  await db.sandboxBlock.update({ where: { network_height: { network: "tron", height: transfer.blockHeight! } }, data: { hash: "7a".repeat(32) } });
  await scanNetwork(makeTestDeps(), createSandboxAdapter(db, "tron"));
}

async function walletInfo(merchant: TestMerchant, uuid: string) {
  return (await callSigned("/v1/wallet/info", { uuid }, merchant)).body.result;
}

describe("a held deposit removed by a reorganisation while its refund is on the way", () => {
  it("stops a refund not yet signed: it fails with the reason, the other deposit is held again and refunded alone", async () => {
    const merchant = await makeMerchant();
    const wallet = await blockedWallet(merchant);
    const vanishing = await deposit(merchant, wallet.address, "12");
    await deposit(merchant, wallet.address, "30");
    const [refund] = (await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant)).body.result.refunds;
    expect(refund).toMatchObject({ amount: "42", status: "process" });

    await reorganiseAway(vanishing);

    const payouts = await addApiKey(merchant.merchantId, "payout");
    const stopped = (await callSigned("/v1/payout/info", { uuid: refund.uuid }, payouts)).body.result;
    expect(stopped).toMatchObject({ status: "fail", txid: "" });
    expect(await getTestDb().payout.findUniqueOrThrow({ where: { id: refund.uuid } })).toMatchObject({ waitReason: expect.stringMatching(/removed from the chain/) });
    const events = await getTestDb().webhookDelivery.findMany({ where: { objectId: refund.uuid, target: "endpoint" }, orderBy: { createdAt: "asc" } });
    expect(events.map((event) => event.eventType).at(-1) ?? "payout.failed").toBe("payout.failed");
    const info = await walletInfo(merchant, wallet.uuid);
    expect(info.held_amount).toBe("30");
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual([{ owner: merchant.merchantId, asset: "USDT:tron", bucket: "blocked_held", balance: 30_000_000n }]);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);

    // The payout pass finds nothing to send for it; the next refund returns the deposit that is there.
    const deps = makeTestDeps();
    await sendPayouts(deps, "tron", getChainSender(deps.db, deps.config, "tron")!);
    expect(await getTestDb().outgoingTransfer.count({ where: { reference: { startsWith: `payout:${refund.uuid}:` }, status: { notIn: ["failed"] } } })).toBe(0);
    const refunds = (await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant)).body.result.refunds;
    expect(refunds.map((row: { status: string; amount: string }) => [row.status, row.amount])).toEqual([
      ["fail", "42"],
      ["process", "30"],
    ]);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("lets a refund already sent go its way and leaves the vanished deposit to an operator: nothing is guessed, the books stay whole", async () => {
    const merchant = await makeMerchant();
    await fundMerchant(merchant, "5.00");
    const balancesBefore = await listMerchantBalances(getTestDb(), merchant.merchantId);
    const wallet = await blockedWallet(merchant);
    const vanishing = await deposit(merchant, wallet.address, "12");
    const [refund] = (await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant)).body.result.refunds;
    const deps = makeTestDeps();
    const sender = getChainSender(deps.db, deps.config, "tron")!;
    await sendPayouts(deps, "tron", sender);
    const payouts = await addApiKey(merchant.merchantId, "payout");
    expect((await callSigned("/v1/payout/info", { uuid: refund.uuid }, payouts)).body.result.status).toBe("process");

    await reorganiseAway(vanishing);

    // The deposit is left as the books had it (bound to its refund); the refund is paid.
    expect(await getTestDb().chainTransfer.findFirstOrThrow({ where: { txid: vanishing } })).toMatchObject({ status: "confirmed", refundPayoutId: refund.uuid });
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant);
    await sendPayouts(deps, "tron", sender);
    expect((await callSigned("/v1/payout/info", { uuid: refund.uuid }, payouts)).body.result).toMatchObject({ status: "paid", amount: "12" });
    // Nothing was taken from the merchant on a guess.
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual(balancesBefore);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
