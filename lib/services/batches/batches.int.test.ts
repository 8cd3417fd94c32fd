import { describe, expect, it } from "vitest";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { processOneBatch, SKIPPED_MESSAGE } from "@/lib/jobs/handlers/process-batches";
import { batchElementId } from "./batches";

const good = (i: number) => ({ amount: String(10 + i), currency: "USD", to_currency: "USDT", network: "tron", order_id: `b-${i}` });

async function processAll(deps = makeTestDeps()) {
  // Other test files may have batches waiting too: run until none is left.
  while (await processOneBatch(deps));
}

describe("payment batches", () => {
  it("accepts a batch, processes it asynchronously, and reports items and counters", async () => {
    const merchant = await makeMerchant();
    const payments = [good(0), { amount: "abc", currency: "USD" }, good(2), { amount: "5", currency: "KZT" }];
    const created = await callSigned("/v1/payment/batch", { payments }, merchant);
    expect(created.status).toBe(200);
    expect(created.body.result).toEqual({ batch_id: expect.any(String), kind: "payment", count: 4, status: "pending" });
    const batchId = created.body.result.batch_id;
    const before = await callSigned("/v1/batch/info", { batch_id: batchId }, merchant);
    expect(before.body.result).toMatchObject({ status: "pending", total: 4, succeeded: 0, failed: 0, on_error: "continue" });
    await processAll();
    const info = await callSigned("/v1/batch/info", { batch_id: batchId }, merchant);
    expect(info.body.result).toMatchObject({ batch_id: batchId, kind: "payment", status: "completed", total: 4, succeeded: 2, failed: 2 });
    const items = info.body.result.items;
    expect(items.map((item: { status: string }) => item.status)).toEqual(["done", "error", "done", "error"]);
    expect(items[0]).toMatchObject({ idx: 0, order_id: "b-0", result: { order_id: "b-0", payment_status: "check", payer_currency: "USDT" } });
    expect(items[1].error).toMatch(/amount/);
    expect(items[1]).not.toHaveProperty("result");
    expect(items[3].error).toMatch(/payment\.unknown_currency/);
    const page = await callSigned("/v1/batch/info", { batch_id: batchId, limit: 2, offset: 2 }, merchant);
    expect(page.body.result.items.map((item: { idx: number }) => item.idx)).toEqual([2, 3]);
    expect(page.body.result.total).toBe(4);
  });

  it("with on_error: stop, skips the rest after the first failure and counts them as failed", async () => {
    const merchant = await makeMerchant();
    const created = await callSigned("/v1/payment/batch", { payments: [good(0), { currency: "USD" }, good(2), good(3)], on_error: "stop" }, merchant);
    await processAll();
    const info = (await callSigned("/v1/batch/info", { batch_id: created.body.result.batch_id }, merchant)).body.result;
    expect(info).toMatchObject({ status: "completed", succeeded: 1, failed: 3 });
    expect(info.items.slice(2).map((item: { error: string }) => item.error)).toEqual([SKIPPED_MESSAGE, SKIPPED_MESSAGE]);
  });

  it("finishes a batch after its worker died mid-way, without duplicating an element", async () => {
    const merchant = await makeMerchant();
    const payments = Array.from({ length: 6 }, (_, i) => ({ amount: "20", currency: "USD", to_currency: "BTC" }));
    // `stop` processes one element at a time, which makes the moment of death exact.
    const created = await callSigned("/v1/payment/batch", { payments, on_error: "stop" }, merchant);
    const batchId = created.body.result.batch_id;
    // The worker dies right after creating element 3's invoice, before recording the element.
    let calls = 0;
    const dying = makeTestDeps({
      now: () => {
        calls++;
        if (calls === 2 * 3 + 3) throw new Error("worker killed");
        return new Date();
      },
    });
    await expect(processOneBatch(dying)).rejects.toThrow("worker killed");
    const midway = (await callSigned("/v1/batch/info", { batch_id: batchId }, merchant)).body.result;
    expect(midway).toMatchObject({ status: "processing", succeeded: 3 });
    expect(await getTestDb().invoice.findUnique({ where: { id: batchElementId(batchId, 3) } })).not.toBeNull();
    // Another worker picks it up once the lease lapses.
    const later = makeTestDeps({ now: () => new Date(Date.now() + 120_000) });
    while (await processOneBatch(later));
    const done = (await callSigned("/v1/batch/info", { batch_id: batchId }, merchant)).body.result;
    expect(done).toMatchObject({ status: "completed", succeeded: 6, failed: 0 });
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(6);
    expect(done.items[3].result.uuid).toBe(batchElementId(batchId, 3));
  });

  it.each([
    [{ payments: [] }, "batch.empty"],
    [{ payments: Array.from({ length: 5001 }, () => ({})) }, "batch.too_large"],
    [{ payments: "x" }, "batch.empty"],
    [{ payments: [good(0)], on_error: "explode" }, "batch.bad_request"],
  ])("refuses %# with %s", async (body, code) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/payment/batch", body, merchant);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
  });

  it("answers batch.bad_id and batch.not_found (also for another merchant's batch)", async () => {
    const owner = await makeMerchant();
    const stranger = await makeMerchant();
    const created = await callSigned("/v1/payment/batch", { payments: [good(0)] }, owner);
    expect((await callSigned("/v1/batch/info", { batch_id: "nope" }, owner)).body.error.code).toBe("batch.bad_id");
    const foreign = await callSigned("/v1/batch/info", { batch_id: created.body.result.batch_id }, stranger);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("batch.not_found");
  });

  it("covers the whole batch with one Idempotency-Key", async () => {
    const merchant = await makeMerchant();
    const headers = { "idempotency-key": "batch-key-1" };
    const first = await callSigned("/v1/payment/batch", { payments: [good(0), good(1)] }, merchant, { headers });
    const second = await callSigned("/v1/payment/batch", { payments: [good(0), good(1)] }, merchant, { headers });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.result.batch_id).toBe(first.body.result.batch_id);
    expect(await getTestDb().batch.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });
});
