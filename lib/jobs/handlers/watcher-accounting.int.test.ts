import { describe, expect, it } from "vitest";
import { createSandboxAdapter } from "@/lib/chains/sandbox/sandbox-chain";
import type { NetworkId } from "@/lib/catalogue";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { getChainSender } from "@/lib/chains/registry";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { loadSettlementFigures } from "@/lib/services/invoices/settlement-figures";

// How the watcher accounts for what chains do: reorganisations that return a transaction, credits
// the merchant has already spent, payments on the wrong network, transfers larger than the
// invoice, and invoices that cannot be evaluated. On the sandbox chains, whose blocks the tests
// rewrite the way a reorganisation would.


async function newInvoice(merchant: TestMerchant, body: Record<string, unknown>) {
  const response = await callSigned("/v1/payment", { amount: "100.00", currency: "USD", to_currency: "USDT", network: "tron", ...body }, merchant);
  expect(response.status).toBe(200);
  return response.body.result as { uuid: string; address: string; payer_amount: string; network: NetworkId; payer_currency: string; required_confirmations: number };
}

async function deposit(merchant: TestMerchant, network: string, currency: string, address: string, amount: string): Promise<string> {
  const response = await callSigned("/v1/sandbox/deposit", { network, currency, address, amount }, merchant);
  expect(response.status).toBe(200);
  return response.body.result.txid;
}

async function mine(merchant: TestMerchant, network: string, blocks: number) {
  expect((await callSigned("/v1/sandbox/mine", { network, blocks }, merchant)).status).toBe(200);
}

async function info(merchant: TestMerchant, uuid: string) {
  return (await callSigned("/v1/payment/info", { uuid }, merchant)).body.result;
}

/** Replaces the block holding a sandbox transaction with another of the same height (a reorganisation). */
async function replaceBlockOf(txid: string, hash: string): Promise<{ height: number; previousHash: string }> {
  const db = getTestDb();
  const transaction = await db.sandboxTransaction.findUniqueOrThrow({ where: { txid } });
  const block = await db.sandboxBlock.findUniqueOrThrow({ where: { network_height: { network: transaction.network, height: transaction.blockHeight! } } });
  await db.sandboxBlock.update({ where: { network_height: { network: block.network, height: block.height } }, data: { hash } });
  return { height: block.height, previousHash: block.hash };
}

const scan = (network: NetworkId) => scanNetwork(makeTestDeps(), createSandboxAdapter(getTestDb(), network));

describe("the watcher's accounting", () => {
  it("credits a transaction again when a reorganisation returns it to the very same block, once each time", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant, { network: "solana" });
    const txid = await deposit(merchant, "solana", "USDT", invoice.address, invoice.payer_amount);
    await mine(merchant, "solana", 20);
    expect((await info(merchant, invoice.uuid)).payment_status).toBe("paid");
    const paid = await listMerchantBalances(getTestDb(), merchant.merchantId);

    // Another block takes the place of the one holding it (with the transaction in it again) …
    const { previousHash } = await replaceBlockOf(txid, "11".repeat(32));
    await scan("solana");
    // … and then the original block wins after all.
    await replaceBlockOf(txid, previousHash);
    await scan("solana");

    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "paid", amount_paid: invoice.payer_amount });
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual(paid);
    const transfer = await getTestDb().chainTransfer.findFirstOrThrow({ where: { txid } });
    expect(transfer).toMatchObject({ status: "confirmed", credits: 3 });
    const references = (await getTestDb().ledgerJournal.findMany({ where: { reference: { startsWith: `transfer:${transfer.id}:` } } })).map((journal) => journal.reference).sort();
    expect(references).toEqual([1, 2, 3].flatMap((n) => [`transfer:${transfer.id}:credit:${n}`, ...(n < 3 ? [`transfer:${transfer.id}:credit:${n}:reversed`] : [])]).sort());
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("posts the reversal of a credit the merchant already spent, as a visible debt that later income pays back", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant, { network: "tron" });
    const txid = await deposit(merchant, "tron", "USDT", invoice.address, invoice.payer_amount);
    await mine(merchant, "tron", 30);
    const [credited] = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(credited).toMatchObject({ bucket: "available", asset: "USDT:tron" });

    // The funds leave in a real payout, sent and confirmed …
    const payout = (
      await callSigned("/v1/payout", { amount: formatAmount(credited.balance, 6), currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: `spend-${invoice.uuid}` }, merchant)
    ).body.result;
    const deps = makeTestDeps();
    await sendPayouts(deps, "tron", getChainSender(deps.db, deps.config, "tron")!);
    await mine(merchant, "tron", 10); // tron min_confirmations
    await sendPayouts(deps, "tron", getChainSender(deps.db, deps.config, "tron")!);
    expect((await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant)).body.result.status).toBe("paid");
    // … then the payment vanishes from the chain: its block is replaced by one without it.
    await getTestDb().sandboxTransaction.delete({ where: { txid } });
    await orphanByHash(txid, "22".repeat(32));
    await scan("tron");

    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "check", is_final: false, amount_paid: "0" });
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual([{ owner: merchant.merchantId, asset: "USDT:tron", bucket: "debt", balance: -credited.balance }]);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
    // In debt, the merchant pays nothing out, whatever else it holds.
    const refused = await callSigned("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: `while-in-debt-${invoice.uuid}` }, merchant);
    expect([refused.status, refused.body.error.code]).toEqual([409, "payout.insufficient_funds"]);

    // A later payment pays the debt back before anything becomes available.
    const second = await newInvoice(merchant, { network: "tron", amount: "300.00" });
    await deposit(merchant, "tron", "USDT", second.address, second.payer_amount);
    await mine(merchant, "tron", 30);
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances.map((row) => row.bucket)).toEqual(["available"]);
    const secondNet = (await getTestDb().maturityLot.findFirstOrThrow({ where: { reference: { startsWith: `invoice:${second.uuid}:settle:` } } })).amount;
    expect(balances[0].balance).toBe(BigInt(secondNet.toFixed()) - credited.balance);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("reverses only an orphaned top-up's share, not the whole invoice's settlement", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant, { network: "tron" });
    const half = parseAmount(invoice.payer_amount, 6)! / 2n;
    await deposit(merchant, "tron", "USDT", invoice.address, formatAmount(half, 6));
    await mine(merchant, "tron", 30);
    const topUp = await deposit(merchant, "tron", "USDT", invoice.address, invoice.payer_amount);
    await mine(merchant, "tron", 30);
    expect((await info(merchant, invoice.uuid)).payment_status).toBe("paid_over");
    const settleJournals = await getTestDb().ledgerJournal.count({ where: { reference: { startsWith: `invoice:${invoice.uuid}:settle:` } } });

    await getTestDb().sandboxTransaction.delete({ where: { txid: topUp } });
    await orphanByHash(topUp, "33".repeat(32));
    await scan("tron");

    const after = await info(merchant, invoice.uuid);
    expect(parseAmount(after.amount_paid, 6)).toBe(half);
    // No settlement was reversed whole: one clawback for the top-up's share, nothing re-settled.
    expect(await getTestDb().ledgerJournal.count({ where: { reference: { startsWith: `invoice:${invoice.uuid}:settle:` } } })).toBe(settleJournals);
    expect(await getTestDb().ledgerJournal.count({ where: { reference: { startsWith: `invoice:${invoice.uuid}:clawback:` } } })).toBe(1);
    const [available] = await listMerchantBalances(getTestDb(), merchant.merchantId);
    const fee = (half * 150n + 9_999n) / 10_000n + 300_000n;
    expect(available).toMatchObject({ bucket: "available", balance: half - fee });
    // The invoice's fee and net, as its page and the CSV show them: the settlement less the clawback.
    const row = await getTestDb().invoice.findUniqueOrThrow({ where: { id: invoice.uuid } });
    expect((await loadSettlementFigures(getTestDb(), [row])).get(invoice.uuid)).toEqual({ fee: formatAmount(fee, 6), net: formatAmount(half - fee, 6) });
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("hands out an address on one EVM network only, and credits nobody for a payment on the wrong one", async () => {
    const merchant = await makeMerchant();
    const onEthereum = await newInvoice(merchant, { network: "ethereum" });
    const onBsc = await newInvoice(merchant, { network: "bsc" });
    expect(onBsc.address.toLowerCase()).not.toBe(onEthereum.address.toLowerCase());

    // The buyer sends the Ethereum invoice's USDT on BSC.
    await deposit(merchant, "bsc", "USDT", onEthereum.address, onEthereum.payer_amount);
    await mine(merchant, "bsc", 80);
    await scan("bsc");
    expect(await info(merchant, onEthereum.uuid)).toMatchObject({ payment_status: "check", amount_paid: "0" });
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual([]);
    const recorded = await getTestDb().chainTransfer.findFirstOrThrow({ where: { network: "bsc", toAddress: onEthereum.address } });
    expect(recorded).toMatchObject({ invoiceId: null, reviewReason: "wrong_network", credits: 0 });
  });

  it("waits for the confirmations of a transfer's own value, not the smaller invoice's", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant, { network: "tron", amount: "10.00" });
    expect(invoice.required_confirmations).toBe(10);
    // 2 000 USDT on a 10 USD invoice: the tier above 1 000 USD asks for 20 confirmations.
    await deposit(merchant, "tron", "USDT", invoice.address, "2000");
    await mine(merchant, "tron", 15);
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "confirm_check", amount_paid: "0" });
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual([]);
    await mine(merchant, "tron", 5);
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "paid_over", amount_paid: "2000" });
  });

  it("sets an invoice that cannot be evaluated aside for review without holding the network's cursor back", async () => {
    const db = getTestDb();
    const merchant = await makeMerchant();
    const broken = await newInvoice(merchant, { network: "ton", to_currency: "TON", amount: "20.00" });
    const healthy = await newInvoice(merchant, { network: "ton", to_currency: "TON", amount: "20.00" });
    const trigger = `fail_${broken.uuid.replace(/-/g, "")}`;
    // Any failure of this one invoice's evaluation: here the database refuses to update its row.
    await db.$executeRawUnsafe(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'invoice row refused'; END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER ${trigger} BEFORE UPDATE ON invoices FOR EACH ROW WHEN (OLD.id = '${broken.uuid}') EXECUTE FUNCTION ${trigger}()`);
    try {
      await deposit(merchant, "ton", "TON", broken.address, broken.payer_amount);
      await deposit(merchant, "ton", "TON", healthy.address, healthy.payer_amount);
      await db.sandboxTransaction.updateMany({ where: { toAddress: { in: [broken.address, healthy.address] } }, data: { blockHeight: null } });
      await mineWithoutScan("ton", 3);
      const result = await scan("ton");
      const tip = (await db.sandboxBlock.findFirstOrThrow({ where: { network: "ton" }, orderBy: { height: "desc" } })).height;
      expect(result.height).toBe(tip);
      expect((await db.chainCursor.findUniqueOrThrow({ where: { network: "ton" } })).height).toBeGreaterThanOrEqual(tip);
      expect((await info(merchant, healthy.uuid)).payment_status).toBe("paid");
      expect((await info(merchant, broken.uuid)).payment_status).toBe("check");
      const review = await db.invoiceReview.findUniqueOrThrow({ where: { invoiceId: broken.uuid } });
      expect(review).toMatchObject({ resolvedAt: null, network: "ton", lastError: expect.stringContaining("invoice row refused") });
      await scan("ton");
      expect(await db.invoiceReview.findUniqueOrThrow({ where: { invoiceId: broken.uuid } })).toMatchObject({ failures: review.failures + 1, resolvedAt: null });
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${trigger} ON invoices`);
      await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${trigger}()`);
    }
    await scan("ton");
    expect((await info(merchant, broken.uuid)).payment_status).toBe("paid");
    expect((await db.invoiceReview.findUniqueOrThrow({ where: { invoiceId: broken.uuid } })).resolvedAt).not.toBeNull();
  });
});

/** Mines sandbox blocks directly, without the scan the sandbox operation runs after mining. */
async function mineWithoutScan(network: NetworkId, blocks: number) {
  const { mineSandboxBlocks } = await import("@/lib/chains/sandbox/sandbox-chain");
  await mineSandboxBlocks(getTestDb(), network, blocks, new Date());
}

/** The transfer's recorded block gets another hash: the block that held it is gone. */
async function orphanByHash(txid: string, hash: string) {
  const transfer = await getTestDb().chainTransfer.findFirstOrThrow({ where: { txid } });
  await getTestDb().sandboxBlock.update({ where: { network_height: { network: transfer.network, height: transfer.blockHeight! } }, data: { hash } });
}
