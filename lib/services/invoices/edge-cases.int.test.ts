import { describe, expect, it } from "vitest";
import { createSandboxAdapter } from "@/lib/chains/sandbox/sandbox-chain";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { RateSourceError } from "@/lib/rates";
import { callApi, callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { evaluationDepsOf } from "@/lib/services/deposits/evaluate-invoice";
import { orphanInvoiceTransfers } from "@/lib/services/deposits/orphan-transfers";
import { withTransaction } from "@/lib/db/transaction";

async function create(merchant: TestMerchant, body: Record<string, unknown>, deps = makeTestDeps()) {
  const response = await callSigned("/v1/payment", { amount: "100.00", currency: "USD", ...body }, merchant, { deps });
  expect(response.status).toBe(200);
  return response.body.result;
}

async function info(merchant: TestMerchant, uuid: string) {
  return (await callSigned("/v1/payment/info", { uuid }, merchant)).body.result;
}

const failingRates = {
  name: "down",
  isOffline: false,
  fetchUsdPrices: async () => Promise.reject(new RateSourceError("down", { retryable: true, source: "down" })),
};

describe("edge cases of the deposit pipeline", () => {
  it("never credits another asset sent to a deposit address as the invoice's coin", async () => {
    const merchant = await makeMerchant();
    const invoice = await create(merchant, { to_currency: "USDT", network: "ethereum" });
    // 100 000 000 wei of ETH, numerically equal to 100 USDT in USDT's minor units.
    await callSigned("/v1/sandbox/deposit", { network: "ethereum", currency: "ETH", address: invoice.address, amount: "0.0000000001" }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "ethereum", blocks: 100 }, merchant);
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "check", amount_paid: "0" });
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual([]);
    const recorded = await getTestDb().chainTransfer.findFirst({ where: { toAddress: invoice.address } });
    expect(recorded).toMatchObject({ currency: "ETH", invoiceId: null });
  });

  it("orphaning an unconfirmed extra payment leaves a settled invoice and the ledger as they were", async () => {
    const merchant = await makeMerchant();
    const invoice = await create(merchant, { to_currency: "USDT", network: "tron" });
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 40 }, merchant);
    const before = await listMerchantBalances(getTestDb(), merchant.merchantId);
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: "5" }, merchant);
    const extra = await getTestDb().chainTransfer.findFirstOrThrow({ where: { invoiceId: invoice.uuid, status: "seen" } });
    await withTransaction(getTestDb(), (tx) => orphanInvoiceTransfers(tx, evaluationDepsOf(makeTestDeps().config), invoice.uuid, [extra], new Date()));
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "paid", is_final: true });
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual(before);
    expect(await getTestDb().ledgerJournal.count({ where: { reference: { startsWith: `invoice:${invoice.uuid}:settle:` } } })).toBe(1);
  });

  it("leaves a paid invoice credited when a concurrent pass saw its transfer mined again before the reversal", async () => {
    const merchant = await makeMerchant();
    const invoice = await create(merchant, { to_currency: "USDT", network: "tron" });
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 40 }, merchant);
    const before = await listMerchantBalances(getTestDb(), merchant.merchantId);
    const transfer = await getTestDb().chainTransfer.findFirstOrThrow({ where: { invoiceId: invoice.uuid } });
    // One pass judged the transfer's block gone; another saw it in a new block first.
    await getTestDb().chainTransfer.update({ where: { id: transfer.id }, data: { blockHash: `${transfer.blockHash}-again` } });
    await withTransaction(getTestDb(), (tx) => orphanInvoiceTransfers(tx, evaluationDepsOf(makeTestDeps().config), invoice.uuid, [transfer], new Date()));
    expect(await getTestDb().chainTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).toMatchObject({ status: "confirmed" });
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "paid", is_final: true });
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual(before);
    // Judged on the hash it still has, it is orphaned and its credit reversed.
    const current = await getTestDb().chainTransfer.findUniqueOrThrow({ where: { id: transfer.id } });
    await withTransaction(getTestDb(), (tx) => orphanInvoiceTransfers(tx, evaluationDepsOf(makeTestDeps().config), invoice.uuid, [current], new Date()));
    expect(await getTestDb().chainTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).toMatchObject({ status: "orphaned" });
    expect(await info(merchant, invoice.uuid)).toMatchObject({ is_final: false });
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("gives up on a mempool transaction that vanished, so the invoice can expire", async () => {
    const merchant = await makeMerchant();
    const invoice = await create(merchant, { to_currency: "USDT", network: "solana" });
    const { txid } = (await callSigned("/v1/sandbox/deposit", { network: "solana", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant)).body.result;
    expect((await info(merchant, invoice.uuid)).payment_status).toBe("confirm_check");
    // Evicted from the mempool, and long enough ago.
    await getTestDb().sandboxTransaction.deleteMany({ where: { txid } });
    await getTestDb().chainTransfer.updateMany({ where: { txid }, data: { updatedAt: new Date(Date.now() - 11 * 60_000) } });
    await scanNetwork(makeTestDeps(), createSandboxAdapter(getTestDb(), "solana"));
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "check", is_final: false });
    expect((await getTestDb().chainTransfer.findFirstOrThrow({ where: { txid } })).status).toBe("orphaned");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("revives with is_refresh on the invoice's own terms, not the new request's", async () => {
    const merchant = await makeMerchant();
    const first = await create(merchant, { amount: "10.00", currency: "EUR", to_currency: "BTC", order_id: "terms-1" });
    await callSigned("/v1/sandbox/expire", { uuid: first.uuid }, merchant);
    const revived = await create(merchant, { amount: "12.00", currency: "USD", to_currency: "BTC", order_id: "terms-1", is_refresh: true });
    expect(revived).toMatchObject({ uuid: first.uuid, amount: "10.00", currency: "EUR", payer_amount: first.payer_amount, payment_status: "check" });
  });

  it("keeps the hosted page answering with the last quote when no rate can be had", async () => {
    const merchant = await makeMerchant();
    const invoice = await create(merchant, { to_currency: "USDT", network: "tron" });
    await getTestDb().invoice.update({ where: { id: invoice.uuid }, data: { rateExpiresAt: new Date(Date.now() - 1000) } });
    const page = await callApi(new Request(`http://gateway.test/v1/pay/${invoice.uuid}`), { deps: makeTestDeps({ rates: failingRates }) });
    expect(page.status).toBe(200);
    expect(page.body.result.payer_amount).toBe(invoice.payer_amount);
  });

  it("answers bad input with its code, never a 500", async () => {
    const merchant = await makeMerchant();
    const cursor = Buffer.from("2020-01-01T00:00:00Z|x").toString("base64url");
    expect((await callSigned("/v1/payment/list", { cursor }, merchant)).body.error.code).toBe("payment.bad_cursor");
    expect((await callSigned("/v1/payment", { amount: "9".repeat(90), currency: "USD" }, merchant)).body.error.code).toBe("payment.bad_amount");
    const accepted = await callSigned("/v1/payment/accepted/set", { accepted: [{ currency: "USDT" }] }, merchant);
    expect(accepted.body.error.code).toBe("accepted.no_network");
  });
});
