import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { payInvoice } from "@/lib/testing/funding";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// Refunds on the tron sandbox chain (the payer's address is known there) and on bitcoin's
// (UTXO: no payer address, so the refund names one).

const REFUND_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

async function fee(): Promise<number> {
  const merchant = await makeMerchant();
  const services = (await callSigned("/v1/payout/services", {}, merchant)).body.result as { currency: string; network: string; commission: { fee_amount: string } }[];
  return Number(services.find((entry) => entry.currency === "USDT" && entry.network === "tron")!.commission.fee_amount);
}

describe("refunds", () => {
  it("refunds everything received to the payer's address by default, in the coin received, and shows it in payment info", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "100.00");
    // A second payment keeps the balance able to carry the fee on top of the full refund.
    await payInvoice(merchant, "50.00");
    const response = await callSigned("/v1/payment/refund", { uuid: paid.uuid }, merchant);
    expect(response.status).toBe(200);
    const refund = response.body.result;
    expect(refund).toMatchObject({
      payment_uuid: paid.uuid,
      order_id: paid.order_id,
      amount: paid.payer_amount,
      currency: "USDT",
      network: "tron",
      address: paid.payer_address,
      status: "process",
      is_final: false,
      receive_amount: paid.payer_amount,
    });
    expect(paid.payer_address).toMatch(/^T/);
    const info = (await callSigned("/v1/payment/info", { uuid: paid.uuid }, merchant)).body.result;
    expect(info.refund_status).toBe("full");
    expect(info.refunds).toEqual([
      { uuid: refund.uuid, status: "process", amount: paid.payer_amount, address: paid.payer_address, txid: "", is_final: false, created_at: refund.created_at },
    ]);
    const nothing = await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "1" }, merchant);
    expect([nothing.status, nothing.body.error.code]).toEqual([400, "refund.nothing_to_refund"]);
  });

  it("refunds partially, never above what was paid, and repeats by (payment, address, amount)", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "100.00");
    const first = (await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "30", address: REFUND_ADDRESS }, merchant)).body.result;
    expect(first).toMatchObject({ amount: "30", address: REFUND_ADDRESS });
    const repeat = (await callSigned("/v1/payment/refund", { order_id: paid.order_id, amount: "30.000", address: REFUND_ADDRESS }, merchant)).body.result;
    expect(repeat.uuid).toBe(first.uuid);
    expect((await callSigned("/v1/payment/info", { uuid: paid.uuid }, merchant)).body.result.refund_status).toBe("partial");
    const tooMuch = await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: String(Number(paid.payer_amount) - 29) }, merchant);
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([400, "refund.exceeds_refundable"]);
    // In the coin's units, as every amount of the API.
    const left = (BigInt(Math.round(Number(paid.payer_amount) * 1e6)) - 30_000_000n).toString().padStart(7, "0");
    const leftText = `${left.slice(0, -6)}.${left.slice(-6)}`.replace(/\.?0+$/, "");
    expect(tooMuch.body.error.message).toBe(`At most ${leftText} USDT is left to refund.`);
    expect(await getTestDb().payout.count({ where: { invoiceId: paid.uuid } })).toBe(1);
  });

  it("lets the customer bear the fee when the refund fee-config says so", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "100.00");
    expect((await callSigned("/v1/refund/fee-config/get", {}, merchant)).body.result).toEqual({ payer: "merchant" });
    expect((await callSigned("/v1/refund/fee-config/set", { payer: "customer" }, merchant)).body.result).toEqual({ payer: "customer" });
    const refund = (await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "20" }, merchant)).body.result;
    expect(Number(refund.receive_amount)).toBeCloseTo(20 - (await fee()), 6);
    expect((await callSigned("/v1/refund/fee-config/set", { payer: "bank" }, merchant)).body.error.code).toBe("refund.bad_request");
  });

  it("never refunds more than was paid, however many refunds race", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "100.00");
    await payInvoice(merchant, "100.00"); // enough balance for every fee: only the refundable amount limits
    const responses = await Promise.all(Array.from({ length: 20 }, (_, index) => callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: String(10 + index / 100), address: REFUND_ADDRESS }, merchant)));
    const accepted = responses.filter((response) => response.status === 200).map((response) => Number(response.body.result.amount));
    const refused = responses.filter((response) => response.status !== 200).map((response) => response.body.error.code);
    expect(new Set(refused)).toEqual(new Set(["refund.exceeds_refundable"]));
    const total = accepted.reduce((sum, amount) => sum + amount, 0);
    expect(total).toBeLessThanOrEqual(Number(paid.payer_amount) + 1e-9);
    expect(total + 10.2).toBeGreaterThan(Number(paid.payer_amount));
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it.each<[string, Record<string, unknown>, number, string]>([
    ["a malformed uuid", { uuid: "x" }, 400, "payment.bad_uuid"],
    ["no lookup", { uuid: undefined }, 400, "payment.no_lookup"],
    ["an unknown payment", { uuid: "00000000-0000-4000-8000-000000000000" }, 404, "payment.not_found"],
    ["a bad amount", { amount: "-1" }, 400, "refund.bad_amount"],
    ["a dust amount", { amount: "0.000001" }, 400, "refund.dust"],
    ["a bad address", { address: "nope" }, 400, "payout.bad_address"],
    ["an address of another network", { address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }, 400, "payout.address_network_mismatch"],
    ["another network than the payment's", { network: "bsc" }, 400, "payout.asset_mismatch"],
  ])("refuses %s", async (_name, body, status, code) => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "20.00");
    const response = await callSigned("/v1/payment/refund", { uuid: paid.uuid, ...body }, merchant);
    expect([response.status, response.body.error.code]).toEqual([status, code]);
  });

  it("refuses a gateway-owned address, an unpaid or unselected payment, and a UTXO refund without an address", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "20.00");
    const other = (await callSigned("/v1/payment", { amount: "5.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
    expect((await callSigned("/v1/payment/refund", { uuid: paid.uuid, address: other.address }, merchant)).body.error.code).toBe("refund.destination_internal");
    expect((await callSigned("/v1/payment/refund", { uuid: other.uuid }, merchant)).body.error.code).toBe("refund.nothing_to_refund");
    const agnostic = (await callSigned("/v1/payment", { amount: "5.00", currency: "USD" }, merchant)).body.result;
    expect((await callSigned("/v1/payment/refund", { uuid: agnostic.uuid }, merchant)).body.error.code).toBe("refund.nothing_to_refund");

    const btc = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "BTC" }, merchant)).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "bitcoin", currency: "BTC", address: btc.address, amount: btc.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "bitcoin", blocks: 6 }, merchant);
    const noAddress = await callSigned("/v1/payment/refund", { uuid: btc.uuid }, merchant);
    expect([noAddress.status, noAddress.body.error.code]).toEqual([400, "refund.no_address"]);
    const withAddress = await callSigned("/v1/payment/refund", { uuid: btc.uuid, address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", amount: "0.0001" }, merchant);
    expect(withAddress.body.result).toMatchObject({ currency: "BTC", network: "bitcoin", amount: "0.0001" });
  });

  it("goes out on chain as a payout and announces payout.* events; another merchant's payment is not found", async () => {
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    await callSigned("/v1/webhooks", { url: "http://127.0.0.1:9/hook" }, merchant);
    const paid = await payInvoice(merchant, "60.00");
    const stranger = await makeMerchant();
    expect((await callSigned("/v1/payment/refund", { uuid: paid.uuid }, stranger)).body.error.code).toBe("payment.not_found");
    const refund = (await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "15" }, merchant)).body.result;
    const sender = getChainSender(deps.db, deps.config, "tron")!;
    await sendPayouts(deps, "tron", sender);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant); // tron min_confirmations
    await sendPayouts(deps, "tron", sender);
    const info = (await callSigned("/v1/payment/info", { uuid: paid.uuid }, merchant)).body.result;
    expect(info.refunds[0]).toMatchObject({ uuid: refund.uuid, status: "paid", is_final: true, txid: expect.stringMatching(/\S/) });
    const events = await getTestDb().webhookDelivery.findMany({ where: { objectId: refund.uuid }, orderBy: { createdAt: "asc" } });
    expect(events.map((event) => event.eventType)).toEqual(["payout.approved", "payout.broadcasting", "payout.sent", "payout.confirmed"]);
    expect(JSON.parse(events[3].body)).toMatchObject({ type: "payout", uuid: refund.uuid, status: "paid", address: paid.payer_address });
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("repeats a full refund made without an amount: the same refund, not nothing_to_refund", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "50.00");
    await payInvoice(merchant, "50.00");
    const first = (await callSigned("/v1/payment/refund", { uuid: paid.uuid }, merchant)).body.result;
    const again = await callSigned("/v1/payment/refund", { uuid: paid.uuid }, merchant);
    expect(again.status).toBe(200);
    expect(again.body.result.uuid).toBe(first.uuid);
  });
});

describe("refund batches", () => {
  it("makes each element's refund in order, as the single call would, and reports it with kind refund", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "60.00");
    await payInvoice(merchant, "60.00");
    const refunds = [
      { uuid: paid.uuid, amount: "10", address: REFUND_ADDRESS },
      { uuid: paid.uuid, amount: "1000" },
      { uuid: "00000000-0000-4000-8000-000000000000" },
      { order_id: paid.order_id, amount: "5" },
    ];
    const created = await callSigned("/v1/refund/batch", { refunds }, merchant);
    expect(created.body.result).toEqual({ batch_id: expect.any(String), kind: "refund", count: 4, status: "pending" });
    const { processOneBatch } = await import("@/lib/jobs/handlers/process-batches");
    while (await processOneBatch(makeTestDeps()));
    const info = (await callSigned("/v1/batch/info", { batch_id: created.body.result.batch_id }, merchant)).body.result;
    expect(info).toMatchObject({ kind: "refund", status: "completed", succeeded: 2, failed: 2 });
    expect(info.items.map((item: { status: string }) => item.status)).toEqual(["done", "error", "error", "done"]);
    expect(info.items[0].result).toMatchObject({ payment_uuid: paid.uuid, amount: "10", address: REFUND_ADDRESS });
    expect(info.items[1].error).toMatch(/refund.exceeds_refundable/);
    expect(info.items[2].error).toMatch(/payment.not_found/);
    expect((await callSigned("/v1/payment/info", { uuid: paid.uuid }, merchant)).body.result.refunds).toHaveLength(2);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
