import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { RateLimiter } from "@/lib/api/rate-limit";
import { deliverDueWebhooks } from "@/lib/jobs/handlers/deliver-webhooks";
import { getTestDb, getTestSecretBox, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { constructEvent, GatewayClient, isGatewayError, verifyWebhook } from "../src";
import { startApiServer, type ApiServer, type Fault } from "./support/serve-api";

// The client against the real service over real HTTP: the dispatcher, the operation table, the
// database and the sandbox chains. Only the waits between retries are skipped (an injected sleep).

const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** The service's limiter, made to refuse the next `refuseNext` calls: a real 429 from the dispatcher. */
function makeRefusingLimiter(): RateLimiter & { refuseNext: number } {
  const limiter = {
    refuseNext: 0,
    take: () => (limiter.refuseNext > 0 ? (limiter.refuseNext--, 1) : 0),
  };
  return limiter;
}

async function startService(faultFor?: (index: number, method: string, path: string) => Fault) {
  const limiter = makeRefusingLimiter();
  const server = await startApiServer(makeTestDeps({ rateLimiter: limiter }), faultFor);
  cleanups.push(() => server.close());
  return { server, limiter };
}

async function startReceiver(): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  return receiver;
}

function clientFor(server: ApiServer, merchant: TestMerchant) {
  const waits: number[] = [];
  const client = new GatewayClient({
    baseUrl: server.baseUrl,
    publicId: merchant.publicId,
    secret: merchant.secret,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { client, waits };
}

/** Pays an invoice in full on the tron sandbox chain, through the client (see lib/testing/funding.ts). */
async function payOnSandbox(client: GatewayClient, invoice: { address: string | null; payer_amount: string | null }) {
  await client.request("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address!, amount: invoice.payer_amount! });
  await client.request("/v1/sandbox/mine", { network: "tron", blocks: 25 });
}

function createInvoiceBody(usd = "200.00") {
  return { amount: usd, currency: "USD", to_currency: "USDT", network: "tron", order_id: `client-${randomUUID()}` };
}

/** Runs the webhook dispatcher once for one merchant, as the worker would. */
async function deliverWebhooks(merchant: TestMerchant) {
  await deliverDueWebhooks(
    { db: getTestDb(), secretBox: getTestSecretBox(), now: () => new Date(), sendOptions: { allowLoopback: true, timeoutMs: 3000 } },
    { limit: 50, perMerchantLimit: 50, onlyMerchantIds: [merchant.merchantId] },
  );
}

describe("invoices through the client", () => {
  it("creates an invoice, replays it with the same key, pays it on the sandbox and reads it", async () => {
    const { server } = await startService();
    const merchant = await makeMerchant();
    const { client } = clientFor(server, merchant);
    const body = createInvoiceBody();

    const created = await client.requestWithResponse("/v1/payment", body, { idempotencyKey: `create-${body.order_id}` });
    expect(created).toMatchObject({ status: 200, isReplayed: false, attempts: 1, idempotencyKey: `create-${body.order_id}` });
    expect(created.requestId).toMatch(/^req_/);
    const invoice = created.result;
    expect(invoice).toMatchObject({ order_id: body.order_id, amount: "200.00", currency: "USD", payer_currency: "USDT", network: "tron", payment_status: "check" });

    const replayed = await client.requestWithResponse("/v1/payment", body, { idempotencyKey: `create-${body.order_id}` });
    expect(replayed.isReplayed).toBe(true);
    expect(replayed.result).toEqual(invoice);

    await payOnSandbox(client, invoice);
    const paid = await client.payments.info({ uuid: invoice.uuid });
    expect(paid).toMatchObject({ uuid: invoice.uuid, payment_status: "paid", is_final: true });
    // The hosted page's public projection, unsigned.
    const hosted = await client.payments.hosted(invoice.uuid);
    expect(hosted).toMatchObject({ uuid: invoice.uuid, payment_status: "paid" });
    expect(hosted).not.toHaveProperty("additional_data");
  });

  it("pages through the history with paginate, newest first, without repeats", async () => {
    const { server } = await startService();
    const merchant = await makeMerchant();
    const { client } = clientFor(server, merchant);
    const created: string[] = [];
    for (let index = 0; index < 5; index++) created.push((await client.payments.create({ amount: `${10 + index}.00`, currency: "USD", to_currency: "USDT", network: "tron" })).uuid);

    const seen: string[] = [];
    for await (const invoice of client.paginate("/v1/payment/history", { limit: 2 })) seen.push(invoice.uuid);
    expect(seen).toEqual([...created].reverse());
    expect(server.received.filter((request) => request === "POST /v1/payment/history")).toHaveLength(3);

    const filtered: string[] = [];
    for await (const invoice of client.paginate("/v1/payment/history", { status: "paid" })) filtered.push(invoice.uuid);
    expect(filtered).toEqual([]);
  });

  it("throws a GatewayError whose code is typed by the operation", async () => {
    const { server } = await startService();
    const merchant = await makeMerchant();
    const { client } = clientFor(server, merchant);
    const error = await client.payments.info({ uuid: randomUUID() }).catch((caught: unknown) => caught);
    if (!isGatewayError(error, "/v1/payment/info")) throw error;
    expect(error.code satisfies string).toBe("payment.not_found");
    expect(error).toMatchObject({ kind: "api", status: 404, attempts: 1 });
    expect(error.requestId).toMatch(/^req_/);

    const refused = await client.payments.create({ amount: "ten", currency: "USD" }).catch((caught: unknown) => caught);
    expect(isGatewayError(refused, "/v1/payment") && refused.code).toBe("payment.bad_amount");

    const stranger = new GatewayClient({ baseUrl: server.baseUrl, publicId: merchant.publicId, secret: "not-the-secret" });
    const unsigned = await stranger.payments.info({ uuid: randomUUID() }).catch((caught: unknown) => caught);
    expect(isGatewayError(unsigned) && unsigned.code).toBe("merchant.bad_signature");
  });
});

describe("payouts through the client", () => {
  it("creates one payout despite a 429 and an answer lost after the service ran it", async () => {
    let payoutAttempts = 0;
    const { server, limiter } = await startService((_, method, path) => (method === "POST" && path === "/v1/payout" && ++payoutAttempts === 2 ? "lose-answer" : "pass"));
    const merchant = await makeMerchant();
    const { client, waits } = clientFor(server, merchant);
    const invoice = await client.payments.create(createInvoiceBody());
    await payOnSandbox(client, invoice);

    const orderId = `payout-${randomUUID()}`;
    limiter.refuseNext = 1;
    const payout = await client.requestWithResponse("/v1/payout", { amount: "25", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: orderId });
    // 1: refused by the limiter (429, Retry-After 1); 2: created, answer lost; 3: the stored answer, replayed.
    expect(payout).toMatchObject({ attempts: 3, isReplayed: true, status: 200 });
    expect(payout.result).toMatchObject({ order_id: orderId, amount: "25", currency: "USDT", address: TRON_ADDRESS });
    expect(waits[0]).toBe(1000);
    expect(server.received.filter((request) => request === "POST /v1/payout")).toHaveLength(3);

    const listed = (await client.payouts.list({})).items.filter((item) => item.order_id === orderId);
    expect(listed).toHaveLength(1);
    expect(await client.payouts.info({ uuid: payout.result.uuid })).toMatchObject({ uuid: payout.result.uuid, order_id: orderId });
  });
});

describe("webhooks through the client", () => {
  function eventOf(received: ReceivedRequest[], type: string, index = 0) {
    const matching = received.filter((request) => request.headers["x-webhook-event"] === type);
    expect(matching.length).toBeGreaterThan(index);
    return matching[index];
  }

  it("verifies a real delivery, and keeps verifying through a secret rotation", async () => {
    const { server } = await startService();
    const receiver = await startReceiver();
    const merchant = await makeMerchant();
    const { client } = clientFor(server, merchant);
    const registered = await client.webhooks.register({ url: receiver.url });
    const firstSecret = registered.secret;

    const invoice = await client.payments.create(createInvoiceBody());
    await payOnSandbox(client, invoice);
    await deliverWebhooks(merchant);
    const delivery = eventOf(receiver.received, "invoice.paid");
    const event = constructEvent({ rawBody: delivery.rawBody, headers: delivery.headers, secrets: [firstSecret] });
    if (event.type !== "invoice.paid") throw new Error(`unexpected ${event.type}`);
    expect(event.body).toMatchObject({ type: "payment", uuid: invoice.uuid, order_id: invoice.order_id, status: "paid", is_final: true });
    expect(event.deliveryId).toBe(delivery.headers["x-webhook-id"]);

    // The event log knows the same event, by the id the delivery carried.
    expect(event.eventId).toEqual(expect.any(String));
    expect(await client.events.info({ id: event.eventId! })).toMatchObject({ id: event.eventId, type: "invoice.paid", object_id: invoice.uuid });

    const rotated = await client.webhooks.rotateSecret({ overlap_hours: 1 });
    expect(rotated.secret).not.toBe(firstSecret);
    const second = await client.payments.create(createInvoiceBody("150.00"));
    await payOnSandbox(client, second);
    await deliverWebhooks(merchant);
    const during = eventOf(receiver.received, "invoice.paid", 1);
    expect(during.headers["x-webhook-signature-previous"]).toBeDefined();
    // A receiver still on the old secret, one already on the new, and one holding both all accept it.
    expect(verifyWebhook({ rawBody: during.rawBody, headers: during.headers, secrets: [firstSecret] })).toBe(true);
    expect(verifyWebhook({ rawBody: during.rawBody, headers: during.headers, secrets: [rotated.secret] })).toBe(true);
    const rotatedEvent = constructEvent({ rawBody: during.rawBody, headers: during.headers, secrets: [rotated.secret, firstSecret] });
    expect(rotatedEvent.body.uuid).toBe(second.uuid);
    expect(verifyWebhook({ rawBody: during.rawBody, headers: during.headers, secrets: ["whsec_someone_else"] })).toBe(false);
    expect(verifyWebhook({ rawBody: during.rawBody.replace("paid", "PAID"), headers: during.headers, secrets: [rotated.secret] })).toBe(false);
  });

  it("pages through the event log", async () => {
    const { server } = await startService();
    const merchant = await makeMerchant();
    const { client } = clientFor(server, merchant);
    for (let index = 0; index < 3; index++) {
      const invoice = await client.payments.create(createInvoiceBody(`${100 + index}.00`));
      await payOnSandbox(client, invoice);
    }
    const types: string[] = [];
    for await (const event of client.paginate("/v1/events/list", { type: "invoice.*", limit: 2 })) types.push(event.type);
    expect(types).toEqual(["invoice.paid", "invoice.paid", "invoice.paid"]);
  });
});

describe("the public catalogue through the client", () => {
  it("reads the currency catalogue without a signature", async () => {
    const { server } = await startService();
    const merchant = await makeMerchant();
    const catalogue = await clientFor(server, merchant).client.catalogue.currencies();
    expect(catalogue).toHaveProperty("pricing_currencies");
  });
});
