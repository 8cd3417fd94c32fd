import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { createSandboxAdapter, randomSandboxPayerAddress } from "@/lib/chains/sandbox/sandbox-chain";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { withTransaction } from "@/lib/db/transaction";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { applyPayoutFact } from "@/lib/services/payouts/apply-payout-fact";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { buildTestEvent } from "@/lib/services/webhooks/send-test-webhook";
import { RateSourceError } from "@/lib/rates";
import { randomUUID } from "node:crypto";
import { addApiKey, callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";

// Static wallets: a permanent address per (customer order_id, coin, network); every deposit
// credited once with its wallet.paid event; after block, deposits held for the blocked-address
// refund, which goes out through the payout machinery exactly once.

const REFUND_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const HOOK = "http://127.0.0.1:9/hook";

interface WalletObject {
  uuid: string;
  order_id: string;
  address: string;
  currency: string;
  network: string;
  status: string;
}

async function createWallet(merchant: TestMerchant, body: Record<string, unknown> = {}): Promise<WalletObject> {
  const response = await callSigned("/v1/wallet", { currency: "USDT", network: "tron", order_id: `customer-${Math.random().toString(36).slice(2)}`, ...body }, merchant);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result;
}

/** A sandbox payment to the wallet's address, confirmed deep enough for any value. */
async function deposit(merchant: TestMerchant, wallet: WalletObject, amount: string, options: { blocks?: number } = {}): Promise<string> {
  const sent = await callSigned("/v1/sandbox/deposit", { network: wallet.network, currency: wallet.currency, address: wallet.address, amount }, merchant);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  if (options.blocks !== 0) await callSigned("/v1/sandbox/mine", { network: wallet.network, blocks: options.blocks ?? 25 }, merchant);
  return sent.body.result.txid;
}

async function usdtBalance(merchant: TestMerchant) {
  const balances = (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant)).body.result.balances;
  return balances[0] ?? { available: "0", maturing: "0", payout_held: "0" };
}

async function walletInfo(merchant: TestMerchant, uuid: string) {
  const response = await callSigned("/v1/wallet/info", { uuid }, merchant);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result;
}

describe("static wallet management", () => {
  it("creates one wallet per (order_id, coin, network), shows, lists and draws it; another merchant's is not found", async () => {
    const merchant = await makeMerchant({ kind: "payment" });
    const created = await callSigned("/v1/wallet", { currency: "usdt", network: "TRON", order_id: "customer-1", url_callback: HOOK }, merchant);
    expect(created.status).toBe(200);
    const wallet = created.body.result;
    expect(wallet).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      order_id: "customer-1",
      currency: "USDT",
      network: "tron",
      address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      address_qr_code: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
      status: "active",
      url_callback: HOOK,
      created_at: expect.any(String),
      updated_at: wallet.created_at,
      blocked_at: null,
    });
    // The same customer, coin and network: the same wallet; another network or coin: another wallet.
    expect((await callSigned("/v1/wallet", { currency: "USDT", network: "tron", order_id: "customer-1" }, merchant)).body.result).toEqual(wallet);
    const onBsc = await createWallet(merchant, { order_id: "customer-1", network: "bsc" });
    expect(onBsc.uuid).not.toBe(wallet.uuid);
    // A coin on one network needs none.
    const btc = await createWallet(merchant, { order_id: "customer-1", currency: "BTC", network: undefined });
    expect(btc).toMatchObject({ currency: "BTC", network: "bitcoin" });
    expect(btc.address).not.toBe(wallet.address);

    const byOrder = await callSigned("/v1/wallet/info", { order_id: "customer-1", currency: "USDT", network: "tron" }, merchant);
    expect(byOrder.body.result).toEqual({ ...wallet, held_amount: "0", deposits: [] });
    const qr = await callSigned("/v1/wallet/qr", { uuid: wallet.uuid }, merchant);
    expect(qr.body.result).toEqual({ image: wallet.address_qr_code });

    const first = (await callSigned("/v1/wallet/list", { limit: 2 }, merchant)).body.result;
    expect(first.items.map((item: WalletObject) => item.uuid)).toEqual([btc.uuid, onBsc.uuid]);
    expect(first.paginate.count).toBe(2);
    const rest = (await callSigned("/v1/wallet/list", { cursor: first.paginate.next_cursor, limit: "many" }, merchant)).body.result;
    expect(rest).toEqual({ items: [wallet], paginate: { count: 1, next_cursor: null } });

    const stranger = await makeMerchant();
    for (const path of ["/v1/wallet/info", "/v1/wallet/qr", "/v1/wallet/block", "/v1/wallet/blocked-address-refund"]) {
      const response = await callSigned(path, { uuid: wallet.uuid, address: REFUND_ADDRESS }, stranger);
      expect([path, response.status, response.body.error.code]).toEqual([path, 404, "wallet.static_not_found"]);
    }
    expect((await callSigned("/v1/wallet/list", {}, stranger)).body.result.items).toEqual([]);
    const payoutKey = await addApiKey(merchant.merchantId, "payout");
    expect((await callSigned("/v1/wallet/info", { uuid: wallet.uuid }, payoutKey)).body.error.code).toBe("merchant.wrong_key_kind");
  });

  it("makes one wallet however many identical creates race", async () => {
    const merchant = await makeMerchant();
    const responses = await Promise.all(Array.from({ length: 8 }, () => callSigned("/v1/wallet", { currency: "USDT", network: "tron", order_id: "racing" }, merchant)));
    expect(new Set(responses.map((response) => response.status))).toEqual(new Set([200]));
    expect(new Set(responses.map((response) => response.body.result.uuid)).size).toBe(1);
    expect(await getTestDb().staticWallet.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });

  it.each<[string, string, unknown, number, string]>([
    ["an unknown coin", "/v1/wallet", { currency: "XYZ", network: "tron", order_id: "c" }, 400, "wallet.unknown_currency"],
    ["a fiat currency", "/v1/wallet", { currency: "EUR", order_id: "c" }, 400, "wallet.unknown_currency"],
    ["a coin on several networks without one", "/v1/wallet", { currency: "USDT", order_id: "c" }, 400, "wallet.no_network"],
    ["a network that does not carry the coin", "/v1/wallet", { currency: "BTC", network: "tron", order_id: "c" }, 400, "wallet.unsupported_network"],
    ["an unknown network", "/v1/wallet", { currency: "USDT", network: "moon", order_id: "c" }, 400, "wallet.unsupported_network"],
    ["no order_id", "/v1/wallet", { currency: "USDT", network: "tron" }, 400, "wallet.bad_order_id"],
    ["an order_id over 128 characters", "/v1/wallet", { currency: "USDT", network: "tron", order_id: "o".repeat(129) }, 400, "wallet.bad_order_id"],
    ["a private callback", "/v1/wallet", { currency: "USDT", network: "tron", order_id: "c", url_callback: "http://10.0.0.1/hook" }, 400, "wallet.bad_url_callback"],
    ["a body that is not an object", "/v1/wallet", [], 400, "wallet.bad_request"],
    ["a malformed uuid", "/v1/wallet/info", { uuid: "nope" }, 400, "wallet.bad_uuid"],
    ["an unknown uuid", "/v1/wallet/qr", { uuid: "00000000-0000-4000-8000-000000000000" }, 404, "wallet.static_not_found"],
    ["an unknown order_id", "/v1/wallet/info", { order_id: "nobody", currency: "BTC" }, 404, "wallet.static_not_found"],
    ["an order_id without its coin", "/v1/wallet/info", { order_id: "nobody" }, 400, "wallet.unknown_currency"],
    ["no lookup", "/v1/wallet/block", {}, 400, "wallet.no_lookup"],
    ["a cursor this list did not give", "/v1/wallet/list", { cursor: "bm9wZQ" }, 400, "wallet.bad_cursor"],
  ])("refuses %s", async (_name, path, body, status, code) => {
    const merchant = await makeMerchant();
    const response = await callSigned(path, body, merchant);
    expect([response.status, response.body.error.code]).toEqual([status, code]);
    expect(await getTestDb().staticWallet.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("draws a payment's address, and answers qr.no_address while a currency-agnostic payment has none", async () => {
    const merchant = await makeMerchant();
    const fixed = (await callSigned("/v1/payment", { amount: "5.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
    expect((await callSigned("/v1/payment/qr", { uuid: fixed.uuid }, merchant)).body.result).toEqual({ image: fixed.address_qr_code });
    const agnostic = (await callSigned("/v1/payment", { amount: "5.00", currency: "USD" }, merchant)).body.result;
    const response = await callSigned("/v1/payment/qr", { uuid: agnostic.uuid }, merchant);
    expect([response.status, response.body.error.code]).toEqual([400, "qr.no_address"]);
  });

  it("creates nothing while no rate fixes the fee (wallet.quote_failed), but answers an existing wallet", async () => {
    const merchant = await makeMerchant();
    const existing = await createWallet(merchant, { order_id: "before-the-outage" });
    const deps = makeTestDeps({ rates: { name: "down", isOffline: false, fetchUsdPrices: async () => Promise.reject(new RateSourceError("down", { retryable: true, source: "down" })) } });
    const refused = await callSigned("/v1/wallet", { currency: "USDT", network: "tron", order_id: "during-the-outage" }, merchant, { deps });
    expect([refused.status, refused.body.error.code]).toEqual([503, "wallet.quote_failed"]);
    expect((await callSigned("/v1/wallet", { currency: "USDT", network: "tron", order_id: "before-the-outage" }, merchant, { deps })).body.result).toEqual(existing);
    expect(await getTestDb().staticWallet.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });

  it("is turned off by GATEWAY_STATIC_WALLETS=0", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps({}, { GATEWAY_STATIC_WALLETS: "0" });
    for (const [path, body] of [["/v1/wallet", { currency: "USDT", network: "tron", order_id: "c" }], ["/v1/wallet/list", {}], ["/v1/wallet/info", { uuid: "00000000-0000-4000-8000-000000000000" }]] as const) {
      const response = await callSigned(path, body, merchant, { deps });
      expect([response.status, response.body.error.code]).toEqual([503, "wallet.disabled"]);
    }
  });
});

describe("static wallet deposits", () => {
  it("credits three sandbox deposits once each, net of the fee, with three wallet.paid events shaped as the test webhook's", async () => {
    const merchant = await makeMerchant();
    await callSigned("/v1/webhooks", { url: HOOK }, merchant);
    const wallet = await createWallet(merchant, { url_callback: "http://127.0.0.1:9/wallet" });
    const txids = [await deposit(merchant, wallet, "100"), await deposit(merchant, wallet, "20.5"), await deposit(merchant, wallet, "7")];
    // Watcher passes that see nothing new credit nothing again.
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 3 }, merchant);

    const events = await getTestDb().webhookDelivery.findMany({ where: { merchantId: merchant.merchantId, eventType: "wallet.paid", target: "endpoint" }, orderBy: { createdAt: "asc" } });
    expect(events).toHaveLength(3);
    const bodies = events.map((event) => JSON.parse(event.body));
    const info = await walletInfo(merchant, wallet.uuid);
    expect(info.deposits.map((item: { txid: string }) => item.txid)).toEqual([...txids].reverse());
    expect(bodies.map((body) => [body.payment_amount, body.txid])).toEqual([["100", txids[0]], ["20.5", txids[1]], ["7", txids[2]]]);
    expect(bodies[0]).toEqual({
      type: "wallet",
      uuid: info.deposits[2].uuid,
      wallet_uuid: wallet.uuid,
      order_id: wallet.order_id,
      address: wallet.address,
      network: "tron",
      currency: "USDT",
      payment_amount: "100",
      payer_currency: "USDT",
      txid: txids[0],
      status: "paid",
      is_final: true,
    });
    const { is_test: _test, ...testBody } = buildTestEvent("wallet", {}).body as Record<string, unknown>;
    expect(Object.keys(bodies[0])).toEqual(Object.keys(testBody));
    // Each to the registered endpoint and to the wallet's url_callback.
    expect(await getTestDb().webhookDelivery.count({ where: { merchantId: merchant.merchantId, eventType: "wallet.paid", target: "callback" } })).toBe(3);

    expect(info.deposits.map((item: { status: string }) => item.status)).toEqual(["paid", "paid", "paid"]);
    // Fee at reception, per deposit: 1.5 % rounded up plus 0.30 USD in USDT at the wallet's rate.
    const fixedFee = Number((await getTestDb().staticWallet.findUniqueOrThrow({ where: { id: wallet.uuid } })).feeFixedAssetMinor) / 1e6;
    const expected = [100, 20.5, 7].reduce((sum, amount) => sum + amount - Math.ceil(amount * 15_000) / 1e6 - fixedFee, 0);
    expect(Number((await usdtBalance(merchant)).available)).toBeCloseTo(expected, 6);
    const credits = await getTestDb().ledgerJournal.count({ where: { reference: { in: info.deposits.map((item: { uuid: string }) => `transfer:${item.uuid}:credit:1`) } } });
    expect(credits).toBe(3);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("waits for confirmations, and records another coin sent to the address without crediting it", async () => {
    const merchant = await makeMerchant();
    const wallet = await createWallet(merchant);
    await deposit(merchant, wallet, "15", { blocks: 0 });
    expect((await walletInfo(merchant, wallet.uuid)).deposits).toEqual([expect.objectContaining({ amount: "15", status: "confirm_check", confirmations: 0 })]);
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "TRX", address: wallet.address, amount: "50" }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
    const info = await walletInfo(merchant, wallet.uuid);
    expect(info.deposits.map((item: { amount: string; status: string }) => [item.amount, item.status])).toEqual([["15", "paid"]]);
    const other = await getTestDb().chainTransfer.findFirstOrThrow({ where: { toAddress: wallet.address, currency: "TRX" } });
    expect(other).toMatchObject({ staticWalletId: null, invoiceId: null, reviewReason: "other_asset" });
    expect(Number((await callSigned("/v1/balance", { currency: "TRX", network: "tron" }, merchant)).body.result.balances[0]?.available ?? 0)).toBe(0);
  });

  it("holds a deposit made after block, refunds it once through a payout however many calls race, and sends it", async () => {
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    await callSigned("/v1/webhooks", { url: HOOK }, merchant);
    const wallet = await createWallet(merchant);
    for (const amount of ["30", "40", "50"]) await deposit(merchant, wallet, amount);
    const before = await usdtBalance(merchant);
    const notBlocked = await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant);
    expect([notBlocked.status, notBlocked.body.error.code]).toEqual([409, "wallet.not_blocked"]);

    const blocked = (await callSigned("/v1/wallet/block", { uuid: wallet.uuid }, merchant)).body.result;
    expect(blocked).toMatchObject({ uuid: wallet.uuid, status: "blocked", blocked_at: expect.any(String) });
    expect((await callSigned("/v1/wallet/block", { order_id: wallet.order_id, currency: "USDT", network: "tron" }, merchant)).body.result).toEqual(blocked);
    const nothing = await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant);
    expect([nothing.status, nothing.body.error.code]).toEqual([400, "wallet.nothing_to_refund"]);

    await deposit(merchant, wallet, "60");
    // Held: not credited, no wallet.paid, the balance unchanged.
    expect(await usdtBalance(merchant)).toEqual(before);
    expect(await getTestDb().webhookDelivery.count({ where: { merchantId: merchant.merchantId, eventType: "wallet.paid" } })).toBe(3);
    const held = await walletInfo(merchant, wallet.uuid);
    expect(held.held_amount).toBe("60");
    expect(held.deposits[0]).toMatchObject({ amount: "60", status: "held", refund_uuid: "" });
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);

    for (const [body, code] of [
      [{ uuid: wallet.uuid }, "wallet.no_address"],
      [{ uuid: wallet.uuid, address: "nope" }, "payout.bad_address"],
      [{ uuid: wallet.uuid, address: wallet.address }, "refund.destination_internal"],
    ] as const) {
      const response = await callSigned("/v1/wallet/blocked-address-refund", body, merchant);
      expect([response.status, response.body.error.code]).toEqual([400, code]);
    }

    const responses = await Promise.all(Array.from({ length: 10 }, () => callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant)));
    expect(new Set(responses.map((response) => response.status))).toEqual(new Set([200]));
    const answers = responses.map((response) => response.body.result);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const [refund] = answers[0].refunds;
    expect(answers[0]).toMatchObject({ uuid: wallet.uuid, status: "blocked" });
    expect(answers[0].refunds).toEqual([
      { uuid: refund.uuid, status: "process", amount: "60", address: REFUND_ADDRESS, txid: "", is_final: false, created_at: expect.any(String), commission: refund.commission, receive_amount: expect.any(String) },
    ]);
    expect(Number(refund.receive_amount) + Number(refund.commission)).toBeCloseTo(60, 6);
    expect(await getTestDb().payout.count({ where: { staticWalletId: wallet.uuid } })).toBe(1);
    const refunded = await walletInfo(merchant, wallet.uuid);
    expect(refunded).toMatchObject({ held_amount: "0" });
    expect(refunded.deposits[0]).toMatchObject({ status: "refunded", refund_uuid: refund.uuid });
    // The merchant's own balance never paid for it.
    expect((await usdtBalance(merchant)).available).toBe(before.available);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);

    const sender = getChainSender(deps.db, deps.config, "tron")!;
    await sendPayouts(deps, "tron", sender);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant);
    await sendPayouts(deps, "tron", sender);
    const payout = (await callSigned("/v1/payout/info", { uuid: refund.uuid }, await addApiKey(merchant.merchantId, "payout"))).body.result;
    expect(payout).toMatchObject({ kind: "wallet_refund", status: "paid", order_id: `walletrefund:${wallet.uuid}:1`, address: REFUND_ADDRESS, amount: "60" });
    const events = await getTestDb().webhookDelivery.findMany({ where: { objectId: refund.uuid }, orderBy: { createdAt: "asc" } });
    expect(events.map((event) => event.eventType)).toEqual(["payout.approved", "payout.broadcasting", "payout.sent", "payout.confirmed"]);
    // A later call answers what was refunded.
    expect((await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant)).body.result.refunds).toEqual([
      expect.objectContaining({ uuid: refund.uuid, status: "paid", is_final: true }),
    ]);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("credits a deposit seen before the block, and holds again what a failed refund did not return", async () => {
    const merchant = await makeMerchant();
    const wallet = await createWallet(merchant);
    await deposit(merchant, wallet, "25", { blocks: 0 });
    await callSigned("/v1/wallet/block", { uuid: wallet.uuid }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
    expect((await walletInfo(merchant, wallet.uuid)).deposits[0]).toMatchObject({ amount: "25", status: "paid" });

    await deposit(merchant, wallet, "35");
    const first = (await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant)).body.result.refunds[0];
    const db = getTestDb();
    await withTransaction(db, async (tx) => {
      expect(await applyPayoutFact(tx, await tx.payout.findUniqueOrThrow({ where: { id: first.uuid } }), { kind: "transfer_gave_up" }, new Date())).not.toBeNull();
    });
    const again = await walletInfo(merchant, wallet.uuid);
    expect(again).toMatchObject({ held_amount: "35" });
    expect(again.deposits[0]).toMatchObject({ status: "held", refund_uuid: "" });
    expect(await auditLedger(db)).toEqual(CLEAN_LEDGER_AUDIT);

    const second = (await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant)).body.result.refunds;
    expect(second.map((refund: { status: string; amount: string }) => [refund.status, refund.amount])).toEqual([
      ["fail", "35"],
      ["process", "35"],
    ]);
    expect(await db.payout.findFirstOrThrow({ where: { id: second[1].uuid } })).toMatchObject({ orderId: `walletrefund:${wallet.uuid}:2` });
    expect(await auditLedger(db)).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("refuses to refund held dust, and to a screened-out address", async () => {
    const merchant = await makeMerchant();
    const wallet = await createWallet(merchant);
    await callSigned("/v1/wallet/block", { uuid: wallet.uuid }, merchant);
    await deposit(merchant, wallet, "0.000001");
    const dust = await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: REFUND_ADDRESS }, merchant);
    expect([dust.status, dust.body.error.code]).toEqual([400, "refund.dust"]);
    // An address of its own: the deny list is shared by every test.
    const denied = randomSandboxPayerAddress("tron");
    await getTestDb().complianceBlock.create({ data: { id: randomUUID(), address: denied, network: "tron", reason: "test" } });
    const blocked = await callSigned("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: denied }, merchant);
    expect([blocked.status, blocked.body.error.code]).toEqual([403, "compliance.blocked"]);
    expect(await getTestDb().payout.count({ where: { staticWalletId: wallet.uuid } })).toBe(0);
    expect((await walletInfo(merchant, wallet.uuid)).held_amount).toBe("0.000001");
  });

  it("sweeps a wallet's deposits, held ones included, to the hot wallet", async () => {
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    const wallet = await createWallet(merchant, { currency: "TRX" });
    await deposit(merchant, wallet, "40");
    await callSigned("/v1/wallet/block", { uuid: wallet.uuid }, merchant);
    await deposit(merchant, wallet, "15");
    const { sweepNetwork } = await import("@/lib/jobs/handlers/sweep-deposits");
    await sweepNetwork(deps, "tron", getChainSender(deps.db, deps.config, "tron")!);
    const sweep = await getTestDb().outgoingTransfer.findFirstOrThrow({ where: { reference: `sweep:${wallet.uuid}:0` } });
    expect(sweep).toMatchObject({ kind: "sweep", fromAddress: wallet.address, coveredMinor: expect.anything() });
    expect(sweep.coveredMinor.toFixed()).toBe("55000000");
    const refused = await callSigned("/v1/payout", { amount: "1", currency: "TRX", network: "tron", address: wallet.address, order_id: "to-a-wallet" }, await addApiKey(merchant.merchantId, "unified"));
    expect(refused.body.error.code).toBe("payout.destination_internal");
  });

  it("reverses a credited and a held deposit that a reorganisation removed, and credits one that comes back once more", async () => {
    const merchant = await makeMerchant();
    const db = getTestDb();
    // USDT on BSC: 18 decimals.
    const wallet = await createWallet(merchant, { network: "bsc" });
    const credited = await deposit(merchant, wallet, "80.123456789012345678", { blocks: 30 });
    await callSigned("/v1/wallet/block", { uuid: wallet.uuid }, merchant);
    const held = await deposit(merchant, wallet, "9", { blocks: 30 });
    expect((await walletInfo(merchant, wallet.uuid)).held_amount).toBe("9");

    // Both vanish: their blocks are replaced by blocks without them.
    for (const txid of [credited, held]) {
      await db.sandboxTransaction.delete({ where: { txid } });
      const transfer = await db.chainTransfer.findFirstOrThrow({ where: { txid } });
      await db.sandboxBlock.update({ where: { network_height: { network: "bsc", height: transfer.blockHeight! } }, data: { hash: "44".repeat(32) } });
    }
    await scanNetwork(makeTestDeps(), createSandboxAdapter(db, "bsc"));
    const after = await walletInfo(merchant, wallet.uuid);
    expect(after).toMatchObject({ held_amount: "0", deposits: [] });
    const balances = await db.ledgerAccount.findMany({ where: { owner: merchant.merchantId, NOT: { balance: 0 } } });
    expect(balances).toEqual([]);
    expect(await auditLedger(db)).toEqual(CLEAN_LEDGER_AUDIT);

    // A deposit returned to the chain after a reorganisation is credited again, once.
    const again = await deposit(merchant, wallet, "5", { blocks: 30 });
    const transfer = await db.chainTransfer.findFirstOrThrow({ where: { txid: again } });
    const block = await db.sandboxBlock.findUniqueOrThrow({ where: { network_height: { network: "bsc", height: transfer.blockHeight! } } });
    await db.sandboxBlock.update({ where: { network_height: { network: "bsc", height: block.height } }, data: { hash: "55".repeat(32) } });
    await scanNetwork(makeTestDeps(), createSandboxAdapter(db, "bsc"));
    await db.sandboxBlock.update({ where: { network_height: { network: "bsc", height: block.height } }, data: { hash: block.hash } });
    await scanNetwork(makeTestDeps(), createSandboxAdapter(db, "bsc"));
    expect(await db.chainTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).toMatchObject({ status: "confirmed", isHeld: true, credits: 3 });
    expect((await walletInfo(merchant, wallet.uuid)).held_amount).toBe("5");
    expect(await auditLedger(db)).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
