import { afterEach, describe, expect, it } from "vitest";
import { createSandboxAdapter } from "@/lib/chains/sandbox/sandbox-chain";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { expireDueInvoices } from "@/lib/jobs/handlers/expire-invoices";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { callApi, callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { deliverDueWebhooks } from "@/lib/jobs/handlers/deliver-webhooks";

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

interface Invoice {
  uuid: string;
  address: string;
  payer_amount: string;
  network: string;
  payer_currency: string;
}

async function newInvoice(merchant: TestMerchant, body: Record<string, unknown> = {}): Promise<Invoice> {
  const response = await callSigned("/v1/payment", { amount: "100.00", currency: "USD", to_currency: "USDT", network: "tron", ...body }, merchant);
  expect(response.status).toBe(200);
  return response.body.result;
}

async function deposit(merchant: TestMerchant, invoice: Invoice, amount: string): Promise<string> {
  const response = await callSigned("/v1/sandbox/deposit", { network: invoice.network, currency: invoice.payer_currency, address: invoice.address, amount }, merchant);
  expect(response.status).toBe(200);
  return response.body.result.txid;
}

async function mine(merchant: TestMerchant, network: string, blocks = 1) {
  const response = await callSigned("/v1/sandbox/mine", { network, blocks }, merchant);
  expect(response.status).toBe(200);
  return response.body.result.height as number;
}

async function info(merchant: TestMerchant, uuid: string) {
  return (await callSigned("/v1/payment/info", { uuid }, merchant)).body.result;
}

/** Mines until the invoice's required confirmations are reached. */
async function confirm(merchant: TestMerchant, invoice: Invoice) {
  const required = (await info(merchant, invoice.uuid)).required_confirmations as number;
  await mine(merchant, invoice.network, required);
}

function decimalToMinor(text: string, decimals: number): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(decimals, "0"));
}

describe("deposit pipeline on the sandbox chain", () => {
  it("moves check → confirm_check → paid, credits the merchant net of the fee, and sends invoice.paid", async () => {
    const merchant = await makeMerchant();
    const receiver = await startWebhookReceiver(() => 200);
    receivers.push(receiver);
    await callSigned("/v1/webhooks", { url: receiver.url }, merchant);
    const invoice = await newInvoice(merchant, { order_id: "paid-1", additional_data: "note" });
    const txid = await deposit(merchant, invoice, invoice.payer_amount);
    const seen = await info(merchant, invoice.uuid);
    expect(seen).toMatchObject({ payment_status: "confirm_check", confirmations: 0, is_final: false });
    await confirm(merchant, invoice);
    const paid = await info(merchant, invoice.uuid);
    expect(paid).toMatchObject({ payment_status: "paid", is_final: true, txid, amount_paid: invoice.payer_amount, payment_amount: invoice.payer_amount, amount_remaining: "0" });
    expect(paid.payer_address).toMatch(/^T/);

    const received = decimalToMinor(invoice.payer_amount, 6);
    const fee = (received * 150n + 9_999n) / 10_000n + 300_000n; // 1.5 % rounded up + 0.30 USD at 1 USD/USDT
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances).toEqual([{ owner: merchant.merchantId, asset: "USDT:tron", bucket: "available", balance: received - fee }]);

    await deliverDueWebhooks(
      { db: getTestDb(), secretBox: makeTestDeps().secretBox, now: () => new Date(), sendOptions: { allowLoopback: true, timeoutMs: 2000 } },
      { limit: 10, perMerchantLimit: 10, onlyMerchantIds: [merchant.merchantId] },
    );
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].headers["x-webhook-event"]).toBe("invoice.paid");
    expect(JSON.parse(receiver.received[0].rawBody)).toEqual({
      type: "payment",
      uuid: invoice.uuid,
      order_id: "paid-1",
      amount: "100.00",
      currency: "USD",
      payment_amount: invoice.payer_amount,
      payer_amount: invoice.payer_amount,
      payer_currency: "USDT",
      status: "paid",
      is_final: true,
      txid,
      additional_data: "note",
    });
  });

  it("credits a transfer exactly once however often or concurrently a watcher reports it", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant);
    await deposit(merchant, invoice, invoice.payer_amount);
    await confirm(merchant, invoice);
    const deps = makeTestDeps();
    const adapter = createSandboxAdapter(getTestDb(), "tron");
    // Rewind the cursor so the watcher reads the same blocks again, several times at once.
    await getTestDb().chainCursor.update({ where: { network: "tron" }, data: { height: 0 } });
    await Promise.all([scanNetwork(deps, adapter), scanNetwork(deps, adapter), scanNetwork(deps, adapter)]);
    await getTestDb().chainCursor.update({ where: { network: "tron" }, data: { height: 0 } });
    await scanNetwork(deps, adapter);
    const transfers = await getTestDb().chainTransfer.findMany({ where: { invoice: { id: invoice.uuid } } });
    expect(transfers).toHaveLength(1);
    const journals = await getTestDb().ledgerJournal.count({ where: { reference: { startsWith: `transfer:${transfers[0].id}` } } });
    expect(journals).toBe(1);
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances).toHaveLength(1);
    expect((await info(merchant, invoice.uuid)).payment_status).toBe("paid");
  });

  it("underpay → wrong_amount_waiting → top-up → paid", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant);
    const total = decimalToMinor(invoice.payer_amount, 6);
    const part = total / 3n;
    const format = (minor: bigint) => `${minor / 1_000_000n}.${String(minor % 1_000_000n).padStart(6, "0")}`;
    await deposit(merchant, invoice, format(part));
    await confirm(merchant, invoice);
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "wrong_amount_waiting", is_final: false, amount_paid: format(part).replace(/\.?0+$/, "") });
    await deposit(merchant, invoice, format(total - part));
    await confirm(merchant, invoice);
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "paid", is_final: true, amount_remaining: "0" });
  });

  it("overpay beyond the tolerance → paid_over; within it → paid", async () => {
    const merchant = await makeMerchant();
    const over = await newInvoice(merchant, { accuracy_payment_percent: 1 });
    const total = decimalToMinor(over.payer_amount, 6);
    const format = (minor: bigint) => `${minor / 1_000_000n}.${String(minor % 1_000_000n).padStart(6, "0")}`;
    await deposit(merchant, over, format((total * 102n) / 100n));
    await confirm(merchant, over);
    expect((await info(merchant, over.uuid)).payment_status).toBe("paid_over");
    const within = await newInvoice(merchant, { accuracy_payment_percent: 1 });
    await deposit(merchant, within, format((decimalToMinor(within.payer_amount, 6) * 995n) / 1000n));
    await confirm(merchant, within);
    expect((await info(merchant, within.uuid)).payment_status).toBe("paid");
  });

  it("underpaid at the end of the term → wrong_amount, crediting what came", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant, { is_payment_multiple: true });
    await deposit(merchant, invoice, "10");
    await confirm(merchant, invoice);
    const expired = await callSigned("/v1/sandbox/expire", { uuid: invoice.uuid }, merchant);
    expect(expired.body.result).toMatchObject({ payment_status: "wrong_amount", is_final: true, amount_paid: "10" });
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances[0].balance).toBe(10_000_000n - 150_000n - 300_000n);
  });

  it("expiry without payment → cancel, by the expiry job on a controllable clock", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant, { lifetime: 300 });
    const later = new Date(Date.now() + 301_000);
    const deps = makeTestDeps({ now: () => later });
    await expireDueInvoices(deps);
    expect(await info(merchant, invoice.uuid)).toMatchObject({ payment_status: "cancel", is_final: true });
  });

  it("keeps the term's payment when confirmations finish after expiry", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant, { lifetime: 300 });
    await deposit(merchant, invoice, invoice.payer_amount);
    await expireDueInvoices(makeTestDeps({ now: () => new Date(Date.now() + 301_000) }));
    expect((await info(merchant, invoice.uuid)).payment_status).toBe("confirm_check");
    await confirm(merchant, invoice);
    expect((await info(merchant, invoice.uuid)).payment_status).toBe("paid");
  });

  it("refuses sandbox deposits to malformed or foreign addresses, and answers 404 with sandbox off", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant);
    const cases: [Record<string, unknown>, string][] = [
      [{ network: "tron", currency: "USDT", address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", amount: "1" }, "sandbox.bad_address"],
      [{ network: "tron", currency: "USDT", address: invoice.address, amount: "1.0000001" }, "sandbox.bad_amount"],
      [{ network: "tron", currency: "BTC", address: invoice.address, amount: "1" }, "sandbox.unknown_network"],
      [{ network: "nonet", currency: "BTC", address: invoice.address, amount: "1" }, "sandbox.unknown_network"],
    ];
    for (const [body, code] of cases) {
      const response = await callSigned("/v1/sandbox/deposit", body, merchant);
      expect(response.status, code).toBe(400);
      expect(response.body.error.code).toBe(code);
    }
    const off = makeTestDeps({}, { GATEWAY_SANDBOX: "0" });
    const disabled = await callSigned("/v1/sandbox/mine", { network: "tron" }, merchant, { deps: off });
    expect(disabled.status).toBe(404);
    const rpc = makeTestDeps({}, { RPC_TRON: "http://127.0.0.1:9" });
    expect((await callSigned("/v1/sandbox/mine", { network: "tron" }, merchant, { deps: rpc })).body.error.code).toBe("sandbox.not_sandbox");
  });

  it("lets the hosted page's sandbox wallet pay: send, then confirm block by block", async () => {
    const merchant = await makeMerchant();
    const invoice = await newInvoice(merchant, { network: "ethereum" });
    const pay = (step: string) =>
      callApi(new Request(`http://gateway.test/v1/pay/${invoice.uuid}/sandbox-pay`, { method: "POST", body: JSON.stringify({ step }) }));
    const sent = await pay("send");
    expect(sent.body.result).toMatchObject({ payment_status: "confirm_check", confirmations: 0 });
    expect((await pay("send")).body.error.code).toBe("pay.not_payable");
    let status = "confirm_check";
    for (let i = 0; i < 100 && status === "confirm_check"; i++) status = (await pay("confirm")).body.result.payment_status;
    expect(status).toBe("paid");
    expect((await pay("confirm")).body.error.code).toBe("pay.not_payable");
    const off = await callApi(new Request(`http://gateway.test/v1/pay/${invoice.uuid}/sandbox-pay`, { method: "POST", body: '{"step":"send"}' }), {
      deps: makeTestDeps({}, { GATEWAY_SANDBOX: "0" }),
    });
    expect(off.status).toBe(404);
  });
});

describe("POST /v1/payment/resend", () => {
  it("records the final event again as new deliveries, and refuses when there is none yet", async () => {
    const merchant = await makeMerchant();
    const receiver = await startWebhookReceiver(() => 200);
    receivers.push(receiver);
    const invoice = await newInvoice(merchant, { order_id: "resend-1" });
    const early = await callSigned("/v1/payment/resend", { uuid: invoice.uuid }, merchant);
    expect(early.status).toBe(400);
    expect(early.body.error.code).toBe("webhook.no_event");
    await deposit(merchant, invoice, invoice.payer_amount);
    await confirm(merchant, invoice);
    const noEndpoint = await callSigned("/v1/payment/resend", { uuid: invoice.uuid }, merchant);
    expect(noEndpoint.body.error.code).toBe("webhook.no_endpoint");
    await callSigned("/v1/webhooks", { url: receiver.url }, merchant);
    const resent = await callSigned("/v1/payment/resend", { order_id: "resend-1" }, merchant);
    expect(resent.body.result).toMatchObject({ uuid: invoice.uuid, event_type: "invoice.paid", deliveries: [expect.any(String)] });
    await deliverDueWebhooks(
      { db: getTestDb(), secretBox: makeTestDeps().secretBox, now: () => new Date(), sendOptions: { allowLoopback: true, timeoutMs: 2000 } },
      { limit: 10, perMerchantLimit: 10, onlyMerchantIds: [merchant.merchantId] },
    );
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0].rawBody)).toMatchObject({ uuid: invoice.uuid, status: "paid" });
    const stranger = await makeMerchant();
    expect((await callSigned("/v1/payment/resend", { uuid: invoice.uuid }, stranger)).body.error.code).toBe("payment.not_found");
  });
});

describe("maturity hold and fee terms", () => {
  it("keeps credited funds maturing for the configured hold, then makes them available", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps({}, { GATEWAY_MATURITY_HOLD_SECONDS: "3600" });
    const invoice = (await callSigned("/v1/payment", { amount: "100.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant, { deps })).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant, { deps });
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 30 }, merchant, { deps });
    const before = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(before.map((row) => row.bucket)).toEqual(["maturing"]);
    // The maturity job runs over every merchant's lots: this merchant's balances tell what it did here.
    const { matureDueLots } = await import("@/lib/jobs/handlers/mature-lots");
    const matureAll = async (at: Date) => {
      while ((await matureDueLots(getTestDb(), at)) > 0);
    };
    await matureAll(new Date(Date.now() + 3_599_000));
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual(before);
    await matureAll(new Date(Date.now() + 3_601_000));
    const after = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(after).toEqual([{ ...before[0], bucket: "available" }]);
    await matureAll(new Date(Date.now() + 7_200_000));
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual(after);
  });

  it("fixes the merchant's fee override at creation and takes it at reception", async () => {
    const merchant = await makeMerchant();
    await getTestDb().merchant.update({ where: { id: merchant.merchantId }, data: { feePercentBps: 100, feeFixedUsdMinor: 0 } });
    const invoice = await newInvoice(merchant);
    // A later change of terms does not touch the invoice already created.
    await getTestDb().merchant.update({ where: { id: merchant.merchantId }, data: { feePercentBps: 500 } });
    await deposit(merchant, invoice, invoice.payer_amount);
    await confirm(merchant, invoice);
    const received = decimalToMinor(invoice.payer_amount, 6);
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances[0].balance).toBe(received - (received * 100n + 9_999n) / 10_000n);
  });
});
