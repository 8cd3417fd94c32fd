import { createHmac, randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createDb } from "@/lib/db/client";
import { callSigned, getTestDb, getTestSecretBox, makeMerchant, type TestMerchant } from "@/lib/testing/harness";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import {
  attemptDelivery,
  claimDueDeliveries,
  recordAttemptOutcome,
  deliverDueWebhooks,
  DELIVERY_LEASE_SECONDS,
  ABANDONED_LAST_ATTEMPT_ERROR,
  reapAbandonedLastAttempts,
  type DeliveryDeps,
} from "@/lib/jobs/handlers/deliver-webhooks";
import { startWebhookDispatcher } from "@/lib/jobs/webhook-dispatcher";
import { recordWebhookEvent } from "./record-event";
import { buildPaymentEventBody } from "./payloads";
import { verifyWebhook } from "./signing";
import { MAX_WEBHOOK_ATTEMPTS, nextWebhookAttemptAt } from "@/lib/domain/webhook-delivery/backoff";
import { withTransaction } from "@/lib/db/transaction";

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(behaviour?: Parameters<typeof startWebhookReceiver>[0]) {
  const started = await startWebhookReceiver(behaviour);
  receivers.push(started);
  return started;
}

function deliveryDeps(clock: { now: Date }, overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return {
    db: getTestDb(),
    secretBox: getTestSecretBox(),
    now: () => clock.now,
    sendOptions: { allowLoopback: true, timeoutMs: 2000 },
    ...overrides,
  };
}

async function registerEndpoint(merchant: TestMerchant, url: string): Promise<string> {
  const response = await callSigned("/v1/webhooks", { url }, merchant);
  expect(response.status).toBe(201);
  return response.body.secret;
}

function samplePayment(uuid = randomUUID()) {
  return buildPaymentEventBody({
    uuid,
    order_id: "order-1",
    amount: "10.00",
    currency: "USD",
    payment_amount: "10.05",
    payer_amount: "10.05",
    payer_currency: "USDT",
    status: "paid",
    is_final: true,
    txid: "ab".repeat(32),
    additional_data: "private note",
  });
}

async function recordPaid(merchant: TestMerchant, now: Date, callbackUrl?: string): Promise<string[]> {
  const body = samplePayment();
  return withTransaction(getTestDb(), (tx) =>
    recordWebhookEvent(tx, { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: body.uuid, body, callbackUrl, now }),
  );
}

/** Scopes a dispatcher pass to one test's merchant: other test files share the database. */
function scopedTo(merchant: TestMerchant) {
  return { limit: 50, perMerchantLimit: 50, onlyMerchantIds: [merchant.merchantId] };
}

async function deliveryRow(id: string) {
  return getTestDb().webhookDelivery.findUniqueOrThrow({ where: { id } });
}

describe("POST /v1/webhooks", () => {
  it("registers the endpoint with 201 and a bare object holding the secret, shown once and kept sealed", async () => {
    const merchant = await makeMerchant();
    const target = await receiver();
    const response = await callSigned("/v1/webhooks", { url: target.url }, merchant);
    expect(response.status).toBe(201);
    expect(response.body.state).toBeUndefined();
    expect(response.body).toMatchObject({ url: target.url, secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/), previous_secret_expires_at: null });
    const info = await callSigned("/v1/webhooks/info", {}, merchant);
    expect(info.body.result.url).toBe(target.url);
    expect(JSON.stringify(info.body)).not.toContain(response.body.secret);
    const row = await getTestDb().webhookEndpoint.findUniqueOrThrow({ where: { merchantId: merchant.merchantId } });
    expect(row.secretCiphertext).not.toContain(response.body.secret);
  });

  it.each([
    ["ftp://example.com/hook"],
    ["not a url"],
    ["http://10.0.0.5/hook"],
    ["http://169.254.169.254/latest/meta-data"],
    ["http://[fd00::1]/hook"],
    ["http://user:pass@example.com/hook"],
    ["http://no-such-host.invalid/hook"],
  ])("refuses %s with webhook.bad_url", async (url) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/webhooks", { url }, merchant);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("webhook.bad_url");
  });

  it("refuses loopback URLs unless the operator allows them", async () => {
    const merchant = await makeMerchant();
    const { makeTestDeps } = await import("@/lib/testing/harness");
    const response = await callSigned("/v1/webhooks", { url: "http://127.0.0.1:9/hook" }, merchant, {
      deps: makeTestDeps({}, { GATEWAY_ALLOW_LOOPBACK_URLS: "0" }),
    });
    expect(response.body.error.code).toBe("webhook.bad_url");
  });

  it("rotates to a new secret while the old one keeps signing during the overlap", async () => {
    const merchant = await makeMerchant();
    const target = await receiver();
    const oldSecret = await registerEndpoint(merchant, target.url);
    const rotated = await callSigned("/v1/webhooks/rotate-secret", { overlap_hours: 2 }, merchant);
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.result.secret;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.result.previous_secret_expires_at).not.toBeNull();

    const clock = { now: new Date() };
    await recordPaid(merchant, clock.now);
    await deliverDueWebhooks(deliveryDeps(clock), scopedTo(merchant));
    const [delivery] = target.received;
    expect(verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers as Record<string, string>, secrets: [newSecret] })).toBe(true);
    expect(verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers as Record<string, string>, secrets: [oldSecret] })).toBe(true);
    expect(verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers as Record<string, string>, secrets: ["whsec_other"] })).toBe(false);

    // After the overlap only the new secret signs.
    clock.now = new Date(Date.now() + 3 * 3600_000);
    await recordPaid(merchant, clock.now);
    await deliverDueWebhooks(deliveryDeps(clock), scopedTo(merchant));
    const later = target.received[1];
    expect(later.headers["x-webhook-signature-previous"]).toBeUndefined();
    expect(verifyWebhook({ rawBody: later.rawBody, headers: later.headers as Record<string, string>, secrets: [oldSecret], nowSeconds: Math.floor(clock.now.getTime() / 1000) })).toBe(false);
  });

  it("refuses a bad overlap and a rotation without an endpoint", async () => {
    const merchant = await makeMerchant();
    expect((await callSigned("/v1/webhooks/rotate-secret", {}, merchant)).body.error.code).toBe("webhook.no_endpoint");
    expect((await callSigned("/v1/webhooks/rotate-secret", { overlap_hours: 500 }, merchant)).body.error.code).toBe("webhook.bad_overlap");
  });
});

describe("delivery", () => {
  it("sends the spec's headers, signed over `<timestamp>.<raw body>` (checked by an independent HMAC)", async () => {
    const merchant = await makeMerchant();
    const target = await receiver();
    const secret = await registerEndpoint(merchant, target.url);
    const clock = { now: new Date() };
    const [id] = await recordPaid(merchant, clock.now);
    expect(await deliverDueWebhooks(deliveryDeps(clock), scopedTo(merchant))).toMatchObject({ delivered: expect.any(Number) });
    const mine = target.received.find((request) => request.headers["x-webhook-id"] === id)!;
    expect(mine.headers["content-type"]).toBe("application/json");
    expect(mine.headers["x-webhook-event"]).toBe("invoice.paid");
    const timestamp = mine.headers["x-webhook-timestamp"] as string;
    expect(timestamp).toMatch(/^\d+$/);
    const independent = createHmac("sha256", secret).update(timestamp + "." + mine.rawBody).digest("hex");
    expect(mine.headers["x-webhook-signature"]).toBe(independent);
    expect(Object.keys(JSON.parse(mine.rawBody))).toEqual([
      "type", "uuid", "order_id", "amount", "currency", "payment_amount", "payer_amount", "payer_currency", "status", "is_final", "txid", "additional_data",
    ]);
    const row = await deliveryRow(id);
    expect(row).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
  });

  it("delivers to url_callback as well as to the endpoint, and nothing when the transaction rolls back", async () => {
    const merchant = await makeMerchant();
    const endpoint = await receiver();
    const callback = await receiver();
    await registerEndpoint(merchant, endpoint.url);
    const clock = { now: new Date() };
    const ids = await recordPaid(merchant, clock.now, callback.url);
    expect(ids).toHaveLength(2);
    const body = samplePayment();
    await expect(
      withTransaction(getTestDb(), async (tx) => {
        await recordWebhookEvent(tx, { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: body.uuid, body, now: clock.now });
        throw new Error("the credit failed");
      }),
    ).rejects.toThrow("the credit failed");
    await deliverDueWebhooks(deliveryDeps(clock), scopedTo(merchant));
    expect(endpoint.received).toHaveLength(1);
    expect(callback.received).toHaveLength(1);
    expect(await getTestDb().webhookDelivery.count({ where: { merchantId: merchant.merchantId } })).toBe(2);
  });

  it("retries a receiver that fails twice, and records attempts 3 when it succeeds", async () => {
    const merchant = await makeMerchant();
    const target = await receiver((index) => (index < 2 ? 500 : 204));
    await registerEndpoint(merchant, target.url);
    const clock = { now: new Date() };
    const [id] = await recordPaid(merchant, clock.now);
    for (let pass = 0; pass < 3; pass++) {
      await deliverDueWebhooks(deliveryDeps(clock), scopedTo(merchant));
      const row = await deliveryRow(id);
      if (row.status === "pending") clock.now = row.nextAttemptAt;
    }
    const row = await deliveryRow(id);
    expect(row).toMatchObject({ status: "delivered", attempts: 3, lastStatusCode: 204 });
    expect(target.received).toHaveLength(3);
    const log = await callSigned("/v1/webhooks/deliveries", {}, merchant);
    expect(log.body.result.deliveries[0]).toMatchObject({ id, status: "delivered", attempts: 3, event_type: "invoice.paid", url: target.url });
  });

  it("follows the whole retry schedule on a controllable clock and ends in `dead` after 12 attempts", async () => {
    const merchant = await makeMerchant();
    const target = await receiver(() => 503);
    await registerEndpoint(merchant, target.url);
    const clock = { now: new Date("2030-01-01T00:00:00Z") };
    const [id] = await recordPaid(merchant, clock.now);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= MAX_WEBHOOK_ATTEMPTS; attempt++) {
      // Not yet due a moment before its time.
      if (attempt > 1) {
        const early = { now: new Date(clock.now.getTime() - 1000) };
        expect((await deliverDueWebhooks(deliveryDeps(early), scopedTo(merchant))).attempted).toBe(0);
      }
      const before = clock.now;
      await deliverDueWebhooks(deliveryDeps(clock), scopedTo(merchant));
      const row = await deliveryRow(id);
      expect(row.attempts).toBe(attempt);
      if (attempt < MAX_WEBHOOK_ATTEMPTS) {
        expect(row.status).toBe("pending");
        expect(row.nextAttemptAt.getTime()).toBe(nextWebhookAttemptAt(attempt, before)!.getTime());
        waits.push((row.nextAttemptAt.getTime() - before.getTime()) / 1000);
        clock.now = row.nextAttemptAt;
      } else {
        expect(row.status).toBe("dead");
        expect(row.lastError).toBe("HTTP 503");
      }
    }
    expect(waits).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600]);
    expect(target.received).toHaveLength(12);
    clock.now = new Date(clock.now.getTime() + 86_400_000);
    expect((await deliverDueWebhooks(deliveryDeps(clock), scopedTo(merchant))).attempted).toBe(0);
  });

  it("repeats a delivery whose worker crashed between sending and recording: delivered again, never lost", async () => {
    const merchant = await makeMerchant();
    const target = await receiver();
    await registerEndpoint(merchant, target.url);
    const clock = { now: new Date("2031-01-01T00:00:00Z") };
    const [id] = await recordPaid(merchant, clock.now);
    const deps = deliveryDeps(clock);
    const [claimed] = await claimDueDeliveries(deps.db, clock.now, { ...scopedTo(merchant), limit: 10, perMerchantLimit: 10 });
    expect(claimed.id).toBe(id);
    // The worker sends… and dies before recording the outcome.
    const { sendWebhookRequest } = await import("./send-request");
    await sendWebhookRequest(claimed.url, claimed.body, { "x-webhook-id": claimed.id }, deps.sendOptions);
    expect(target.received).toHaveLength(1);
    expect((await deliveryRow(id)).status).toBe("pending");
    // While the lease holds, nobody else takes the attempt.
    expect(await claimDueDeliveries(deps.db, clock.now, { ...scopedTo(merchant), limit: 10, perMerchantLimit: 10 })).toEqual([]);
    clock.now = new Date(clock.now.getTime() + (DELIVERY_LEASE_SECONDS + 1) * 1000);
    await deliverDueWebhooks(deps, scopedTo(merchant));
    expect(target.received).toHaveLength(2);
    expect(await deliveryRow(id)).toMatchObject({ status: "delivered", attempts: 2 });
    // The dead worker's late record of attempt 1 cannot overwrite attempt 2.
    await recordAttemptOutcome(deps.db, claimed, { isDelivered: false, error: "late", durationMs: 1 }, clock.now);
    expect(await deliveryRow(id)).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("ends a delivery whose worker stopped during its last attempt once the lease expires, so it no longer holds the queue", async () => {
    const merchant = await makeMerchant();
    const target = await receiver(() => 503);
    await registerEndpoint(merchant, target.url);
    const clock = { now: new Date("2031-06-01T00:00:00Z") };
    const [id] = await recordPaid(merchant, clock.now);
    await getTestDb().webhookDelivery.update({ where: { id }, data: { attempts: MAX_WEBHOOK_ATTEMPTS - 1 } });
    const scope = scopedTo(merchant);
    const [claimed] = await claimDueDeliveries(getTestDb(), clock.now, scope);
    expect(claimed).toMatchObject({ id, attempt: MAX_WEBHOOK_ATTEMPTS });
    // The worker dies here, before sending or recording. While its lease holds, the attempt is still its own.
    expect(await reapAbandonedLastAttempts(getTestDb(), clock.now, scope)).toBe(0);
    expect((await deliveryRow(id)).status).toBe("pending");
    clock.now = new Date(clock.now.getTime() + (DELIVERY_LEASE_SECONDS + 1) * 1000);
    // No claim ever takes a 13th attempt…
    expect(await claimDueDeliveries(getTestDb(), clock.now, scope)).toEqual([]);
    // …so the reaper ends it, once.
    expect(await reapAbandonedLastAttempts(getTestDb(), clock.now, scope)).toBe(1);
    expect(await reapAbandonedLastAttempts(getTestDb(), clock.now, scope)).toBe(0);
    expect(await deliveryRow(id)).toMatchObject({ status: "dead", attempts: MAX_WEBHOOK_ATTEMPTS, leaseUntil: null, lastError: ABANDONED_LAST_ATTEMPT_ERROR });
    // The stopped worker's late record cannot turn it back.
    await recordAttemptOutcome(getTestDb(), claimed, { isDelivered: false, error: "late", durationMs: 1 }, clock.now);
    expect((await deliveryRow(id)).lastError).toBe(ABANDONED_LAST_ATTEMPT_ERROR);
    expect(target.received).toHaveLength(0);
    const log = await callSigned("/v1/webhooks/deliveries", {}, merchant);
    expect(log.body.result.deliveries[0]).toMatchObject({ id, status: "dead" });
  });

  it("never lets two workers deliver the same attempt", async () => {
    const merchant = await makeMerchant();
    const target = await receiver();
    await registerEndpoint(merchant, target.url);
    const clock = { now: new Date("2032-01-01T00:00:00Z") };
    for (let i = 0; i < 30; i++) await recordPaid(merchant, clock.now);
    const otherDb = createDb(inject("databaseUrl"), { poolSize: 4 });
    try {
      const options = { limit: 30, perMerchantLimit: 30, onlyMerchantIds: [merchant.merchantId] };
      await Promise.all([
        deliverDueWebhooks(deliveryDeps(clock), options),
        deliverDueWebhooks(deliveryDeps(clock, { db: otherDb }), options),
        deliverDueWebhooks(deliveryDeps(clock), options),
      ]);
    } finally {
      await otherDb.$disconnect();
    }
    const ids = target.received.map((request) => request.headers["x-webhook-id"]);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    const rows = await getTestDb().webhookDelivery.findMany({ where: { merchantId: merchant.merchantId } });
    expect(rows.every((row) => row.status === "delivered" && row.attempts === 1)).toBe(true);
  });

  it("does not let a slow receiver delay another merchant's deliveries", async () => {
    const slowMerchant = await makeMerchant();
    const fastMerchant = await makeMerchant();
    const slow = await receiver(() => "hang");
    const fast = await receiver();
    await registerEndpoint(slowMerchant, slow.url);
    await registerEndpoint(fastMerchant, fast.url);
    const clock = { now: new Date() };
    for (let i = 0; i < 12; i++) await recordPaid(slowMerchant, clock.now);
    const dispatcher = startWebhookDispatcher(deliveryDeps({ get now() { return new Date(); } }, { sendOptions: { allowLoopback: true, timeoutMs: 5000 } }), {
      concurrency: 8,
      perMerchantConcurrency: 2,
      pollIntervalMs: 20,
      onlyMerchantIds: [slowMerchant.merchantId, fastMerchant.merchantId],
    });
    try {
      await expect.poll(() => slow.received.length, { timeout: 2000 }).toBeGreaterThanOrEqual(2);
      const startedAt = Date.now();
      const [id] = await recordPaid(fastMerchant, new Date());
      await expect.poll(async () => (await deliveryRow(id)).status, { timeout: 2500, interval: 20 }).toBe("delivered");
      // Delivered while every slow attempt was still hanging (their deadline is 5 s).
      expect(Date.now() - startedAt).toBeLessThan(2500);
      expect(slow.received.length).toBeLessThanOrEqual(2);
    } finally {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
      await dispatcher.stop();
    }
  });

  it("re-checks the SSRF rule at send time and refuses a URL that now points at a private address", async () => {
    const merchant = await makeMerchant();
    const clock = { now: new Date("2033-01-01T00:00:00Z") };
    const id = randomUUID();
    await getTestDb().webhookDelivery.create({
      data: { id, merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: id, target: "callback", url: "http://10.1.2.3/hook", body: "{}", nextAttemptAt: clock.now },
    });
    await deliverDueWebhooks(deliveryDeps(clock), scopedTo(merchant));
    const row = await deliveryRow(id);
    expect(row.status).toBe("pending");
    expect(row.lastError).toMatch(/^refused: /);
  });

  it("lists the 50 most recent deliveries of the calling merchant only", async () => {
    const merchant = await makeMerchant();
    const other = await makeMerchant();
    const target = await receiver();
    await registerEndpoint(merchant, target.url);
    await registerEndpoint(other, target.url);
    for (let i = 0; i < 55; i++) await recordPaid(merchant, new Date(Date.UTC(2034, 0, 1, 0, 0, i)));
    await recordPaid(other, new Date());
    const response = await callSigned("/v1/webhooks/deliveries", {}, merchant);
    const deliveries = response.body.result.deliveries;
    expect(deliveries).toHaveLength(50);
    expect(Object.keys(deliveries[0]).sort()).toEqual(["attempts", "created_at", "event_id", "event_type", "id", "last_error", "status", "updated_at", "url"]);
    expect(deliveries[0].created_at > deliveries[49].created_at).toBe(true);
    const otherIds = new Set((await getTestDb().webhookDelivery.findMany({ where: { merchantId: other.merchantId } })).map((row) => row.id));
    expect(deliveries.some((delivery: { id: string }) => otherIds.has(delivery.id))).toBe(false);
  });
});
