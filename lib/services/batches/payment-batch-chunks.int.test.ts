import { describe, expect, it } from "vitest";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { processOneBatch } from "@/lib/jobs/handlers/process-batches";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { runUnit } from "@/lib/deps/unit-of-work";
import { batchElementId } from "./batches";

const tron = (orderId?: string) => ({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron", ...(orderId ? { order_id: orderId } : {}) });

async function processAll(deps = makeTestDeps()) {
  while (await processOneBatch(deps));
}

async function infoOf(batchId: string, merchant: Awaited<ReturnType<typeof makeMerchant>>) {
  return (await callSigned("/v1/batch/info", { batch_id: batchId, limit: 1000 }, merchant)).body.result;
}

describe("payment batches created a chunk at a time", () => {
  it("gives every element of a large batch its own invoice and address, in order", async () => {
    const merchant = await makeMerchant();
    const payments = Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? tron(`chunk-${i}`) : i % 3 === 1 ? tron() : { amount: "10", currency: "USD" }));
    const batchId = (await callSigned("/v1/payment/batch", { payments }, merchant)).body.result.batch_id;
    await processAll();
    const info = await infoOf(batchId, merchant);
    expect(info).toMatchObject({ status: "completed", total: 600, succeeded: 600, failed: 0 });
    const invoices = await getTestDb().invoice.findMany({ where: { merchantId: merchant.merchantId } });
    expect(invoices).toHaveLength(600);
    const addresses = invoices.flatMap((invoice) => (invoice.address ? [invoice.address] : []));
    expect(addresses).toHaveLength(400);
    expect(new Set(addresses).size).toBe(400);
    for (const item of info.items) {
      expect(item.result.uuid).toBe(batchElementId(batchId, item.idx));
      expect(item.result.address_qr_code).toEqual(item.result.address ? expect.stringMatching(/^data:image\/svg\+xml;base64,/) : "");
    }
    expect(info.items[0].result).toMatchObject({ order_id: "chunk-0", payment_status: "check", network: "tron" });
    expect(info.items[2].result).toMatchObject({ payment_status: "select", is_multi: true, address: "" });
  });

  it("never hands one address to two invoices while single creates race a batch", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps();
    const payments = Array.from({ length: 300 }, () => tron());
    const batchId = (await callSigned("/v1/payment/batch", { payments }, merchant)).body.result.batch_id;
    const singles = Array.from({ length: 40 }, () => runUnit(deps, createInvoice, { merchantId: merchant.merchantId, input: tron() }));
    await Promise.all([processAll(deps), ...singles]);
    expect((await infoOf(batchId, merchant)).succeeded).toBe(300);
    const invoices = await getTestDb().invoice.findMany({ where: { merchantId: merchant.merchantId }, select: { address: true, addressIndex: true } });
    expect(invoices).toHaveLength(340);
    expect(new Set(invoices.map((invoice) => invoice.address)).size).toBe(340);
    expect(new Set(invoices.map((invoice) => invoice.addressIndex)).size).toBe(340);
  });

  it("answers a repeated order_id with the invoice of its first element, and a live order with its invoice", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps();
    const live = await runUnit(deps, createInvoice, { merchantId: merchant.merchantId, input: tron("already-live") });
    const payments = [tron("twice"), tron("already-live"), { amount: "abc", currency: "USD", order_id: "bad" }, tron("twice"), tron("once")];
    const batchId = (await callSigned("/v1/payment/batch", { payments }, merchant)).body.result.batch_id;
    await processAll(deps);
    const info = await infoOf(batchId, merchant);
    expect(info).toMatchObject({ status: "completed", succeeded: 4, failed: 1 });
    expect(info.items[0].result.uuid).toBe(batchElementId(batchId, 0));
    expect(info.items[1].result.uuid).toBe(live.id);
    expect(info.items[2].error).toMatch(/payment\.bad_amount/);
    expect(info.items[3].result.uuid).toBe(batchElementId(batchId, 0));
    expect(info.items[4].result.uuid).toBe(batchElementId(batchId, 4));
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(3);
    const slot = await getTestDb().invoiceOrderSlot.findUnique({ where: { merchantId_orderId: { merchantId: merchant.merchantId, orderId: "twice" } } });
    expect(slot?.invoiceId).toBe(batchElementId(batchId, 0));
  });

  it("finishes elements whose invoices a dead worker already made, without making them again", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps();
    const payments = Array.from({ length: 5 }, (_, i) => tron(`crash-${i}`));
    const batchId = (await callSigned("/v1/payment/batch", { payments }, merchant)).body.result.batch_id;
    // A worker made elements 1 and 3 one by one, then died before recording them.
    const made = await Promise.all([1, 3].map((idx) => runUnit(deps, createInvoice, { merchantId: merchant.merchantId, input: payments[idx], invoiceId: batchElementId(batchId, idx) })));
    await getTestDb().batchItem.updateMany({ where: { batchId, idx: { in: [1, 3] } }, data: { status: "processing" } });
    await processAll(deps);
    const info = await infoOf(batchId, merchant);
    expect(info).toMatchObject({ status: "completed", succeeded: 5, failed: 0 });
    expect(info.items[1].result.address).toBe(made[0].address);
    expect(info.items[3].result.address).toBe(made[1].address);
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(5);
  });

  it("revives an expired order for an is_refresh element in its place in the order", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps();
    const expired = await runUnit(deps, createInvoice, { merchantId: merchant.merchantId, input: tron("revive-me") });
    await getTestDb().invoice.update({ where: { id: expired.id }, data: { status: "cancel", isFinal: true, expiresAt: new Date(Date.now() - 1000) } });
    const payments = [tron("before"), { ...tron("revive-me"), is_refresh: true }, tron("revive-me")];
    const batchId = (await callSigned("/v1/payment/batch", { payments }, merchant)).body.result.batch_id;
    await processAll(deps);
    const info = await infoOf(batchId, merchant);
    expect(info).toMatchObject({ status: "completed", succeeded: 3, failed: 0 });
    expect(info.items[1].result).toMatchObject({ uuid: expired.id, address: expired.address, payment_status: "check" });
    expect(info.items[2].result.uuid).toBe(expired.id);
  });
});
