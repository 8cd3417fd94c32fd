import { InngestTestEngine } from "@inngest/test";
import { afterEach, describe, expect, it } from "vitest";
import { PERIODIC_JOBS } from "@/lib/jobs/catalogue";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";
import { createPeriodicJobFunction } from "./periodic-jobs";
import { functions } from "./index";
import { withTransaction } from "@/lib/db/transaction";

let target: WebhookReceiver | undefined;
afterEach(async () => {
  await target?.close();
});

describe("Inngest functions", () => {
  it("serve one function per periodic job of the catalogue", () => {
    const ids = functions.map((fn) => fn.id());
    expect(ids.sort()).toEqual(PERIODIC_JOBS.map((job) => job.name.replace(/\./g, "-")).sort());
  });

  it("deliver recorded webhooks through the same handler as the built-in worker", async () => {
    target = await startWebhookReceiver(() => 200);
    const merchant = await makeMerchant();
    await callSigned("/v1/webhooks", { url: target.url }, merchant);
    const ids = await withTransaction(getTestDb(), (tx) =>
      recordWebhookEvent(tx, { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: "x", body: { type: "payment" }, now: new Date() }),
    );
    const deps = makeTestDeps();
    const job = PERIODIC_JOBS.find((candidate) => candidate.name === "webhook.deliver")!;
    // The handler is scoped to this merchant: other test files share the database.
    const scoped = { ...job, run: () => import("@/lib/jobs/handlers/deliver-webhooks").then((module) => module.deliverDueWebhooks(
      { db: deps.db, secretBox: deps.secretBox, now: deps.now, sendOptions: deps.sendOptions },
      { limit: 10, perMerchantLimit: 10, onlyMerchantIds: [merchant.merchantId] },
    )) };
    const engine = new InngestTestEngine({
      function: createPeriodicJobFunction(scoped, () => deps),
      // Sleeps are Inngest's to keep; in-process they would wait for real.
      steps: Array.from({ length: 8 }, (_, pass) => ({ id: `wait-${pass}`, handler: () => undefined })),
    });
    const { result, error } = await engine.execute({ events: [{ name: "gateway/webhook.recorded", data: { delivery_ids: ids } }] });
    expect(error).toBeUndefined();
    expect((result as unknown[])[0]).toEqual({ attempted: 1, delivered: 1 });
    expect(target.received).toHaveLength(1);
    expect((await getTestDb().webhookDelivery.findUniqueOrThrow({ where: { id: ids[0] } })).status).toBe("delivered");
  });

  it("purge idempotency records older than a day", async () => {
    const merchant = await makeMerchant();
    const old = new Date(Date.now() - 2 * 86_400_000);
    await getTestDb().idempotencyRecord.create({
      data: { merchantId: merchant.merchantId, operation: "/v1/x", key: "old", requestHash: "h", claimToken: "t", state: "done", responseStatus: 200, responseBody: "{}", lockedUntil: old, createdAt: old },
    });
    const deps = makeTestDeps();
    const job = PERIODIC_JOBS.find((candidate) => candidate.name === "idempotency.purge")!;
    const engine = new InngestTestEngine({ function: createPeriodicJobFunction(job, () => deps) });
    const { error } = await engine.execute();
    expect(error).toBeUndefined();
    expect(await getTestDb().idempotencyRecord.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });
});
