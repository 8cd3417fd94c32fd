import { Address, beginCell, contractAddress, toNano, type Cell } from "@ton/core";
import { keyPairFromSeed } from "@ton/crypto";
import { WalletContractV4 } from "@ton/ton";
import { createShardAccount } from "@ton/sandbox";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { getChainSender } from "@/lib/chains/registry";
import { resetRealChains } from "@/lib/chains/real-chains";
import type { TonAccess } from "@/lib/chains/ton/ton-access";
import { createTonSender } from "@/lib/chains/ton/ton-sender";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import type { ApiDeps } from "@/lib/api/deps";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { callSigned, makeMerchant, type TestMerchant } from "@/lib/testing/harness";
import { useServedInProcessChains } from "@/lib/testing/served-in-process-chains";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// Toncoin payouts served end to end by @ton/sandbox through the registry (RPC_TON), on a database
// of this file's own: the merchant's balance from an invoice paid there, one payout paid and one
// that bounces, and one followed by a fresh process after 600 transfers reached the hot wallet.
// After each, the books agree with the chain: `reconcile` finds no shortfall and every paid
// payout's delivery on chain.

const served = useServedInProcessChains("ton_payout_reconcile");

async function fundedMerchant(deps: ApiDeps): Promise<TestMerchant> {
  const chains = served.chains();
  const merchant = await makeMerchant({ deps });
  const invoice = (await callSigned("/v1/payment", { amount: "30.00", currency: "USD", to_currency: "TON", network: "ton" }, merchant, { deps })).body.result;
  chains.ton.chain.record(await chains.ton.treasury.send({ to: Address.parse(invoice.address), value: parseAmount(invoice.payer_amount, 9)!, bounce: false }));
  await served.settle("ton", 5);
  expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status).toBe("paid");
  return merchant;
}

describe("Toncoin payouts on @ton/sandbox, reconciled with the chain", () => {
  it("pays one, fails the bounced one, and the books agree with the chain after both", { timeout: 120_000 }, async () => {
    const [deps, chains] = [served.deps(), served.chains()];
    await served.settle("ton", 1);
    const merchant = await fundedMerchant(deps);
    // The hot wallet's coins come from outside the books: a surplus to the reconciliation, never a shortfall.
    const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "ton", HOT_WALLET_INDEX, "test").address;
    chains.ton.chain.record(await chains.ton.treasury.send({ to: Address.parse(hot), value: toNano("20"), bounce: false }));
    chains.ton.chain.advanceTime(1);

    const { publicKey } = keyPairFromSeed(randomBytes(32));
    const payee = WalletContractV4.create({ workchain: 0, publicKey }).address.toString({ bounceable: false, testOnly: true });
    const code = beginCell().storeUint(0xf232, 16).endCell(); // THROW 50: refuses every message
    const refusing = contractAddress(0, { code, data: beginCell().endCell() });
    await chains.ton.chain.blockchain.setShardAccount(refusing, createShardAccount({ address: refusing, code, data: beginCell().endCell(), balance: toNano("0.1") }));

    const pay = async (address: string, orderId: string) => {
      const created = await callSigned("/v1/payout", { amount: "1.5", currency: "TON", network: "ton", address, order_id: orderId }, merchant, { deps });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      return created.body.result.uuid as string;
    };
    const paid = await pay(payee, "ton-paid");
    const bounced = await pay(refusing.toString({ bounceable: true, testOnly: true }), "ton-bounced");
    const sender = getChainSender(deps.db, deps.config, "ton")!;
    for (let pass = 0; pass < 6; pass++) {
      await sendPayouts(deps, "ton", sender);
      chains.ton.chain.advanceTime(10);
    }

    const infoOf = async (uuid: string) => (await callSigned("/v1/payout/info", { uuid }, merchant, { deps })).body.result;
    expect(await infoOf(paid)).toMatchObject({ status: "paid", is_final: true });
    expect(await infoOf(bounced)).toMatchObject({ internal_status: "failed", is_final: true });
    expect((await chains.ton.chain.getAccountState(Address.parse(payee))).balance).toBe(parseAmount((await infoOf(paid)).receive_amount, 9));
    expect(await auditLedger(deps.db)).toEqual(CLEAN_LEDGER_AUDIT);

    const [reconciled] = (await reconcileWithChains(deps, { network: "ton", timeoutMs: 10_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "TON");
    expect(reconciled).toMatchObject({ shortfall: 0n, unprovenPayouts: [], landedDeadTransfers: [], uncheckedTransactions: 0 });
    expect(hasDrift(reconciled)).toBe(false);
    expect(reconciled.addresses).toBeGreaterThanOrEqual(2); // the hot wallet and the invoice's address

    // Recorded as paying another wallet than the chain's message paid: unproven.
    const [paidTransfer] = await deps.db.outgoingTransfer.findMany({ where: { reference: { startsWith: `payout:${paid}:` } } });
    await deps.db.outgoingTransfer.update({ where: { id: paidTransfer.id }, data: { toAddress: refusing.toString({ bounceable: true, testOnly: true }) } });
    const [misdelivered] = (await reconcileWithChains(deps, { network: "ton", timeoutMs: 10_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "TON");
    expect(misdelivered.unprovenPayouts).toEqual([paid]);
    await deps.db.outgoingTransfer.update({ where: { id: paidTransfer.id }, data: { toAddress: paidTransfer.toAddress } });

    // A paid payout whose recorded transaction the chain does not hold is drift.
    await deps.db.outgoingTransfer.update({ where: { id: paidTransfer.id }, data: { txid: "ab".repeat(32) } });
    await deps.db.payout.update({ where: { id: paid }, data: { txid: "ab".repeat(32) } });
    const [tampered] = (await reconcileWithChains(deps, { network: "ton", timeoutMs: 10_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "TON");
    expect(tampered.unprovenPayouts).toEqual([paid]);
    expect(hasDrift(tampered)).toBe(true);
    await deps.db.outgoingTransfer.update({ where: { id: paidTransfer.id }, data: { txid: paidTransfer.txid } });
    await deps.db.payout.update({ where: { id: paid }, data: { txid: paidTransfer.txid! } });
  });

  it("is followed by a fresh process after a restart, with 600 transfers to the hot wallet since: paid once, seqno advanced by one, reconciled", { timeout: 180_000 }, async () => {
    const [deps, chains] = [served.deps(), served.chains()];
    const merchant = await fundedMerchant(deps);
    const hot = Address.parse(deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "ton", HOT_WALLET_INDEX, "test").address);
    const seqnoBefore = (await chains.ton.chain.runGetMethod(hot, "seqno", [])).readNumber();
    const { publicKey } = keyPairFromSeed(randomBytes(32));
    const payee = WalletContractV4.create({ workchain: 0, publicKey }).address.toString({ bounceable: false, testOnly: true });
    const created = await callSigned("/v1/payout", { amount: "1.5", currency: "TON", network: "ton", address: payee, order_id: "ton-restart" }, merchant, { deps });
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    // The first process: the node takes the message, the chain applies it later; the process dies.
    const queued: Cell[] = [];
    const delayed: TonAccess = { ...chains.ton.chain, sendMessage: async (message) => void queued.push(message) };
    await sendPayouts(deps, "ton", createTonSender({ access: delayed, jettons: { USDT: chains.ton.jetton.master.toString() }, chain: "test" }));
    expect(queued.length).toBeGreaterThanOrEqual(1);
    await chains.ton.chain.sendMessage(queued[0]);
    for (let i = 0; i < 600; i++) chains.ton.chain.record(await chains.ton.treasury.send({ to: hot, value: 1n, bounce: false }));
    chains.ton.chain.advanceTime(120);

    // A fresh process: the chains built anew from the registry, nothing in memory.
    resetRealChains();
    await verifyChains(deps.config, deps.db);
    const fresh = getChainSender(deps.db, deps.config, "ton")!;
    for (let pass = 0; pass < 3; pass++) {
      await sendPayouts(deps, "ton", fresh);
      chains.ton.chain.advanceTime(10);
    }
    const info = (await callSigned("/v1/payout/info", { uuid: created.body.result.uuid }, merchant, { deps })).body.result;
    expect(info).toMatchObject({ status: "paid", is_final: true });
    expect(await deps.db.outgoingTransfer.count({ where: { reference: { startsWith: `payout:${created.body.result.uuid}:` } } })).toBe(1);
    expect((await chains.ton.chain.runGetMethod(hot, "seqno", [])).readNumber()).toBe(seqnoBefore + 1);
    expect((await chains.ton.chain.getAccountState(Address.parse(payee))).balance).toBe(parseAmount(info.receive_amount, 9));
    expect(await auditLedger(deps.db)).toEqual(CLEAN_LEDGER_AUDIT);
    const [reconciled] = (await reconcileWithChains(deps, { network: "ton", timeoutMs: 10_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "TON");
    expect(reconciled).toMatchObject({ shortfall: 0n, unprovenPayouts: [], landedDeadTransfers: [], uncheckedTransactions: 0 });
    expect(hasDrift(reconciled)).toBe(false);
  });
});
