import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callSigned, getTestDb, getTestSecretBox, makeMerchant, type TestMerchant } from "@/lib/testing/harness";
import { spawnTestWorker } from "@/lib/testing/spawn-worker";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { withTransaction } from "@/lib/db/transaction";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";
import { verifyWebhook } from "@/lib/webhooks/signing";
import type { SendResult } from "@/lib/webhooks/send-request";
import { startWebhookDispatcher } from "./webhook-dispatcher";
import { claimDueDeliveries, DELIVERY_LEASE_SECONDS, recordAttemptOutcomes, releaseUnsentClaims, type DeliveryDeps } from "./handlers/deliver-webhooks";

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** Records `count` paid events of a merchant in one transaction; returns their delivery ids. */
async function recordPaidEvents(merchant: TestMerchant, count: number, now: Date, callbackUrl?: string): Promise<string[]> {
  return withTransaction(getTestDb(), async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const uuid = randomUUID();
      const body = { type: "payment", uuid, status: "paid" };
      ids.push(...(await recordWebhookEvent(tx, { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body, callbackUrl, now })));
    }
    return ids;
  });
}

async function deliveryRows(merchant: TestMerchant) {
  return getTestDb().webhookDelivery.findMany({ where: { merchantId: merchant.merchantId }, orderBy: { createdAt: "asc" } });
}

/** A stand-in for the HTTP call whose answers the test gives, one call at a time. */
function heldSend() {
  const calls: { deliveryId: string; answer(result: SendResult): void }[] = [];
  const send: NonNullable<DeliveryDeps["send"]> = (_url, _body, headers) =>
    new Promise<SendResult>((answer) => calls.push({ deliveryId: headers["x-webhook-id"], answer }));
  return { calls, send };
}

function fakeDeps(clock: { now: Date }, send: DeliveryDeps["send"]): DeliveryDeps {
  return { db: getTestDb(), secretBox: getTestSecretBox(), now: () => clock.now, send, sendOptions: { allowLoopback: true, timeoutMs: 2000 } };
}

const CALLBACK_URL = "http://127.0.0.1:9/hook";
const ANSWERED = { isDelivered: true, statusCode: 200, durationMs: 1 } as const;

describe("webhook dispatcher", () => {
  it("sends each delivery once while two more dispatcher processes race it for the same backlog", { timeout: 120_000 }, async () => {
    const merchant = await makeMerchant();
    const target = await startWebhookReceiver();
    receivers.push(target);
    const registered = await callSigned("/v1/webhooks", { url: target.url }, merchant);
    const secret: string = registered.body.secret;
    const stopFile = path.join(os.tmpdir(), `webhook-dispatch-stop-${randomUUID()}`);
    const script = path.join(import.meta.dirname, "testing", "webhook-dispatcher-worker.ts");
    const env = { DISPATCH_MERCHANT_IDS: merchant.merchantId, DISPATCH_STOP_FILE: stopFile };
    const workers = [spawnTestWorker(script, env), spawnTestWorker(script, env)];
    const dispatcher = startWebhookDispatcher(
      { db: getTestDb(), secretBox: getTestSecretBox(), now: () => new Date(), sendOptions: { allowLoopback: true, timeoutMs: 5000 } },
      { concurrency: 8, perMerchantConcurrency: 4, pollIntervalMs: 10, onlyMerchantIds: [merchant.merchantId] },
    );
    let ids: string[] = [];
    try {
      await Promise.all(workers.map((worker) => worker.printed('"ready"')));
      ids = await recordPaidEvents(merchant, 240, new Date());
      await expect
        .poll(() => getTestDb().webhookDelivery.count({ where: { merchantId: merchant.merchantId, status: "delivered" } }), { timeout: 90_000, interval: 50 })
        .toBe(ids.length);
    } finally {
      fs.writeFileSync(stopFile, "");
      await dispatcher.stop();
    }
    const exits = await Promise.all(workers.map((worker) => worker.exited));
    fs.rmSync(stopFile, { force: true });
    for (const exit of exits) expect(exit.code, exit.stderr).toBe(0);
    // The other processes took part: the race was real.
    const sentElsewhere = exits.map((exit) => JSON.parse(exit.stdout.trim().split("\n").pop()!).sent as number);
    expect(sentElsewhere.reduce((sum, sent) => sum + sent, 0)).toBeGreaterThan(0);

    const receivedIds = target.received.map((request) => request.headers["x-webhook-id"]);
    expect(receivedIds).toHaveLength(ids.length);
    expect(new Set(receivedIds)).toEqual(new Set(ids));
    for (const request of target.received) {
      expect(verifyWebhook({ rawBody: request.rawBody, headers: request.headers as Record<string, string>, secrets: [secret] })).toBe(true);
    }
    const rows = await deliveryRows(merchant);
    expect(rows.every((row) => row.status === "delivered" && row.attempts === 1 && row.leaseUntil === null)).toBe(true);
  });

  it("gives back the attempts it claimed ahead but did not send when it stops", async () => {
    const merchant = await makeMerchant();
    const clock = { now: new Date("2036-01-01T00:00:00Z") };
    await recordPaidEvents(merchant, 3, clock.now, CALLBACK_URL);
    const held = heldSend();
    const dispatcher = startWebhookDispatcher(fakeDeps(clock, held.send), {
      concurrency: 1,
      perMerchantConcurrency: 1,
      pollIntervalMs: 20,
      onlyMerchantIds: [merchant.merchantId],
    });
    await expect.poll(() => held.calls.length).toBe(1);
    // One attempt is under way, and one more is claimed, waiting for the merchant's only slot.
    await expect.poll(async () => (await deliveryRows(merchant)).filter((row) => row.leaseUntil !== null).length).toBe(2);
    const stopped = dispatcher.stop();
    held.calls[0].answer(ANSWERED);
    await stopped;
    expect(held.calls).toHaveLength(1);
    const rows = await deliveryRows(merchant);
    const sent = rows.find((row) => row.id === held.calls[0].deliveryId)!;
    expect(sent).toMatchObject({ status: "delivered", attempts: 1, leaseUntil: null });
    // The next worker sends them as first attempts, without waiting for a lease to run out.
    for (const row of rows.filter((row) => row !== sent)) expect(row).toMatchObject({ status: "pending", attempts: 0, leaseUntil: null });
  });

  it("sends an attempt only while its lease outlasts its deadline: one that waited too long is given back and claimed afresh", async () => {
    const merchant = await makeMerchant();
    const clock = { now: new Date("2037-01-01T00:00:00Z") };
    await recordPaidEvents(merchant, 2, clock.now, CALLBACK_URL);
    const held = heldSend();
    const leaseLeftAtSend: number[] = [];
    const send: DeliveryDeps["send"] = async (url, body, headers, options) => {
      const row = await getTestDb().webhookDelivery.findUniqueOrThrow({ where: { id: headers["x-webhook-id"] } });
      leaseLeftAtSend.push(row.leaseUntil!.getTime() - clock.now.getTime());
      return held.send!(url, body, headers, options);
    };
    const dispatcher = startWebhookDispatcher(fakeDeps(clock, send), {
      concurrency: 1,
      perMerchantConcurrency: 1,
      pollIntervalMs: 20,
      onlyMerchantIds: [merchant.merchantId],
    });
    try {
      await expect.poll(() => held.calls.length).toBe(1);
      await expect.poll(async () => (await deliveryRows(merchant)).filter((row) => row.leaseUntil !== null).length).toBe(2);
      // The receiver takes 56 s to fail: the attempt claimed behind it could not finish within its lease any more.
      clock.now = new Date(clock.now.getTime() + 56_000);
      held.calls[0].answer({ isDelivered: false, statusCode: 500, error: "HTTP 500", durationMs: 56_000 });
      await expect.poll(() => held.calls.length).toBe(2);
      held.calls[1].answer(ANSWERED);
    } finally {
      await dispatcher.stop();
    }
    expect(leaseLeftAtSend).toEqual([DELIVERY_LEASE_SECONDS * 1000, DELIVERY_LEASE_SECONDS * 1000]);
    const second = (await deliveryRows(merchant)).find((row) => row.id === held.calls[1].deliveryId)!;
    expect(second).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("records a group of outcomes in one statement, each only at its own attempt, and gives back unsent claims", async () => {
    const merchant = await makeMerchant();
    const clock = { now: new Date("2038-01-01T00:00:00Z") };
    await recordPaidEvents(merchant, 4, clock.now, CALLBACK_URL);
    const db = getTestDb();
    const claimed = await claimDueDeliveries(db, clock.now, { limit: 10, perMerchantLimit: 10, onlyMerchantIds: [merchant.merchantId] });
    expect(claimed).toHaveLength(4);
    const [delivered, failed, stale, unsent] = claimed;
    const finishedAt = new Date(clock.now.getTime() + 1000);
    const recorded = await recordAttemptOutcomes(db, [
      { delivery: delivered, result: { isDelivered: true, statusCode: 204, durationMs: 3 }, finishedAt },
      { delivery: failed, result: { isDelivered: false, statusCode: 503, error: "HTTP 503", durationMs: 3 }, finishedAt },
      // An outcome of an attempt the row has moved past is not recorded.
      { delivery: { ...stale, attempt: stale.attempt + 1 }, result: { isDelivered: true, statusCode: 200, durationMs: 3 }, finishedAt },
    ]);
    expect(recorded).toBe(2);
    expect(await releaseUnsentClaims(db, [unsent], finishedAt)).toBe(1);
    // Given back once: the row is no longer leased to that attempt.
    expect(await releaseUnsentClaims(db, [unsent], finishedAt)).toBe(0);
    const byId = new Map((await deliveryRows(merchant)).map((row) => [row.id, row]));
    expect(byId.get(delivered.id)).toMatchObject({ status: "delivered", attempts: 1, leaseUntil: null, lastStatusCode: 204, lastError: "", deliveredAt: finishedAt });
    expect(byId.get(failed.id)).toMatchObject({ status: "pending", attempts: 1, leaseUntil: null, lastStatusCode: 503, lastError: "HTTP 503", deliveredAt: null });
    expect(byId.get(failed.id)!.nextAttemptAt).toEqual(new Date(finishedAt.getTime() + 10_000));
    expect(byId.get(stale.id)).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(byId.get(stale.id)!.leaseUntil).not.toBeNull();
    expect(byId.get(unsent.id)).toMatchObject({ status: "pending", attempts: 0, leaseUntil: null });
  });
});
