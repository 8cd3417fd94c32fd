import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { processOneBatch } from "@/lib/jobs/handlers/process-batches";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { makeFundedMerchant } from "@/lib/testing/funding";
import { addApiKey, callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const element = (orderId: string, amount = "10", overrides: Record<string, unknown> = {}) => ({ amount, currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: orderId, ...overrides });

async function processAll(deps = makeTestDeps()) {
  while (await processOneBatch(deps));
}

describe("mass payouts (legacy, synchronous)", () => {
  it("answers each element in order, success or a human message, and repeats nothing", async () => {
    const { merchant } = await makeFundedMerchant("100.00");
    const payouts = [element("m-1"), element("m-2", "x"), element("m-3", "10", { address: "nope" }), element("m-4", "10", { source: undefined })];
    const first = await callSigned("/v1/payout/mass", { payouts, source: "manual" }, merchant);
    expect(first.status).toBe(200);
    const items = first.body.result.items;
    expect(items.map((item: { success: boolean }) => item.success)).toEqual([true, false, false, true]);
    expect(items[0]).toEqual({ uuid: expect.any(String), order_id: "m-1", status: "check", is_final: false, approval_required: true, success: true });
    expect(items[1]).toEqual({ order_id: "m-2", success: false, message: expect.stringMatching(/amount/) });
    expect(items[2].message).toMatch(/not a valid tron address/);
    expect(items[2]).not.toHaveProperty("code");

    const again = await callSigned("/v1/payout/mass", { payouts, source: "manual" }, merchant);
    expect(again.body.result.items[0].uuid).toBe(items[0].uuid);
    expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId } })).toBe(2);
  });

  it.each([
    [{ payouts: [] }, "payout.empty_batch"],
    [{ payouts: Array.from({ length: 101 }, (_, index) => element(`x-${index}`)) }, "payout.batch_too_large"],
    [{ payouts: "none" }, "payout.empty_batch"],
  ])("refuses the request %# with %s", async (body, code) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/payout/mass", body, merchant);
    expect([response.status, response.body.error.code]).toEqual([400, code]);
  });
});

describe("payout batches (asynchronous)", () => {
  it("takes elements in order against the balance; once funds run out the rest fail with insufficient_funds", async () => {
    const { merchant, available } = await makeFundedMerchant("100.00");
    const affordable = Math.floor(Number(available) / 10);
    const payouts = Array.from({ length: affordable + 3 }, (_, index) => element(`b-${index}`));
    const created = await callSigned("/v1/payout/batch", { payouts }, merchant);
    expect(created.body.result).toEqual({ batch_id: expect.any(String), kind: "payout", count: affordable + 3, status: "pending" });
    await processAll();
    const info = (await callSigned("/v1/batch/info", { batch_id: created.body.result.batch_id }, merchant)).body.result;
    expect(info).toMatchObject({ kind: "payout", status: "completed", total: affordable + 3, succeeded: affordable, failed: 3 });
    expect(info.items.slice(0, affordable).every((item: { status: string }) => item.status === "done")).toBe(true);
    expect(info.items[0].result).toMatchObject({ order_id: "b-0", amount: "10", status: "process", currency: "USDT" });
    expect(info.items.slice(affordable).map((item: { error: string }) => item.error)).toEqual(Array(3).fill(expect.stringMatching(/available balance does not cover/)));
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("answers an order_id repeated inside the batch with the first element's payout, or duplicate_reference for other terms", async () => {
    const { merchant } = await makeFundedMerchant("100.00");
    const payouts = [element("same"), element("same"), element("same", "11"), element("bad", "-1"), element("after")];
    const created = await callSigned("/v1/payout/batch", { payouts }, merchant);
    await processAll();
    const info = (await callSigned("/v1/batch/info", { batch_id: created.body.result.batch_id }, merchant)).body.result;
    expect(info.items.map((item: { status: string }) => item.status)).toEqual(["done", "done", "error", "error", "done"]);
    expect(info.items[1].result.uuid).toBe(info.items[0].result.uuid);
    expect(info.items[2].error).toMatch(/payout.duplicate_reference/);
    expect(info.items[3].error).toMatch(/payout.bad_amount/);
    expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId } })).toBe(2);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("makes manual payouts that another key approves, not the one that sent the batch", async () => {
    const { merchant } = await makeFundedMerchant("50.00");
    const approver = await addApiKey(merchant.merchantId, "payout");
    const created = await callSigned("/v1/payout/batch", { payouts: [element("bm-1", "5", { source: "manual" })] }, merchant);
    await processAll();
    const info = (await callSigned("/v1/batch/info", { batch_id: created.body.result.batch_id }, merchant)).body.result;
    const uuid = info.items[0].result.uuid;
    expect((await callSigned("/v1/payout/approve", { uuid }, merchant)).body.error.code).toBe("payout.approver_is_creator");
    expect((await callSigned("/v1/payout/approve", { uuid }, approver)).body.result.internal_status).toBe("approved");
  });

  it("finishes after its worker died mid-way, and every payout goes on chain exactly once", async () => {
    const { merchant } = await makeFundedMerchant("200.00");
    const payouts = Array.from({ length: 8 }, (_, index) => element(`crash-${index}`, "5"));
    const created = await callSigned("/v1/payout/batch", { payouts, on_error: "stop" }, merchant);
    const batchId = created.body.result.batch_id;
    // The worker dies while recording element 4, after its payout was committed: claiming the
    // batch asks the clock once, then each element twice — once while its payout is made, once
    // while it is recorded.
    let calls = 0;
    const dying = makeTestDeps({
      now: () => {
        calls++;
        if (calls === 1 + 2 * 4 + 2) throw new Error("worker killed");
        return new Date();
      },
    });
    await expect(processOneBatch(dying)).rejects.toThrow("worker killed");
    const midway = (await callSigned("/v1/batch/info", { batch_id: batchId }, merchant)).body.result;
    expect(midway.status).toBe("processing");
    expect(midway.succeeded).toBeLessThan(8);
    const later = makeTestDeps({ now: () => new Date(Date.now() + 120_000) });
    while (await processOneBatch(later));
    const done = (await callSigned("/v1/batch/info", { batch_id: batchId }, merchant)).body.result;
    expect(done).toMatchObject({ status: "completed", succeeded: 8, failed: 0 });
    const rows = await getTestDb().payout.findMany({ where: { merchantId: merchant.merchantId } });
    expect(rows.map((row) => row.orderId).sort()).toEqual(payouts.map((payout) => payout.order_id).sort());

    // The same later clock as the worker that made the last payouts (they are due from its "now").
    const deps = later;
    const sender = getChainSender(deps.db, deps.config, "tron")!;
    await sendPayouts(deps, "tron", sender);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant); // tron min_confirmations
    await sendPayouts(deps, "tron", sender);
    for (const row of rows) {
      expect(await getTestDb().outgoingTransfer.count({ where: { reference: { startsWith: `payout:${row.id}:` } } })).toBe(1);
      expect((await getTestDb().payout.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("confirmed");
    }
    const sandboxSends = await getTestDb().sandboxTransaction.count({ where: { network: "tron", toAddress: TRON_ADDRESS, txid: { in: (await getTestDb().payout.findMany({ where: { merchantId: merchant.merchantId } })).map((row) => row.txid) } } });
    expect(sandboxSends).toBe(8);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
