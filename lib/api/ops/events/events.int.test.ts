import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { PrismaClient } from "@/generated/prisma/client";
import { withTransaction } from "@/lib/db/transaction";
import { deliverDueWebhooks, type DeliveryDeps } from "@/lib/jobs/handlers/deliver-webhooks";
import { PERIODIC_JOBS } from "@/lib/jobs/catalogue";
import { payInvoice, makeFundedMerchant } from "@/lib/testing/funding";
import { callSigned, getTestDb, getTestSecretBox, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { buildPaymentEventBody, buildPayoutEventBody, buildWalletEventBody } from "@/lib/webhooks/payloads";
import { recordWebhookEvents, type WebhookEventInput } from "@/lib/webhooks/record-event";
import { verifyWebhook } from "@/lib/webhooks/signing";
import { purgeExpiredEvents } from "@/lib/services/events/purge-expired-events";

const DAY_MS = 24 * 3600 * 1000;
const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver() {
  const started = await startWebhookReceiver();
  receivers.push(started);
  return started;
}

async function registerEndpoint(merchant: TestMerchant, url: string): Promise<string> {
  const response = await callSigned("/v1/webhooks", { url }, merchant);
  expect(response.status).toBe(201);
  return response.body.secret;
}

/** One dispatcher pass over one merchant's due deliveries (other files share the database). */
async function deliverFor(merchant: TestMerchant) {
  const deps: DeliveryDeps = { db: getTestDb(), secretBox: getTestSecretBox(), now: () => new Date(), sendOptions: { allowLoopback: true, timeoutMs: 3000 } };
  return deliverDueWebhooks(deps, { limit: 50, perMerchantLimit: 50, onlyMerchantIds: [merchant.merchantId] });
}

function paymentBody(uuid: string, status = "paid") {
  return buildPaymentEventBody({
    uuid,
    order_id: `order-${uuid.slice(0, 8)}`,
    amount: "10.00",
    currency: "USD",
    payment_amount: "10.05",
    payer_amount: "10.05",
    payer_currency: "USDT",
    status,
    is_final: true,
    txid: "ab".repeat(32),
    additional_data: "",
  });
}

function payoutBody(uuid: string, status = "paid") {
  return buildPayoutEventBody({ uuid, order_id: `po-${uuid.slice(0, 8)}`, amount: "5", currency: "USDT", network: "tron", address: TRON_ADDRESS, txid: "", status, is_final: status === "paid" });
}

/** Records events for a merchant directly (the way the services do), in one transaction. */
async function recordEvents(events: WebhookEventInput[]) {
  return withTransaction(getTestDb(), (tx) => recordWebhookEvents(tx, events));
}

describe("the event log is written with the state change", () => {
  it("records an invoice's event in the transaction of its credit: refused with it, then written with it", async () => {
    const merchant = await makeMerchant();
    const db = getTestDb();
    const invoice = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: `atomic-${randomUUID()}` }, merchant)).body.result;
    // While this merchant's events cannot be written, neither can its credit.
    const trigger = `refuse_events_${merchant.merchantId.replace(/-/g, "")}`;
    await db.$executeRawUnsafe(`CREATE FUNCTION ${trigger}() RETURNS trigger AS $$ BEGIN
      IF NEW.merchant_id = '${merchant.merchantId}'::uuid THEN RAISE EXCEPTION 'event refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER ${trigger} BEFORE INSERT ON webhook_events FOR EACH ROW EXECUTE FUNCTION ${trigger}()`);
    try {
      await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
      await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
      const refused = (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant)).body.result;
      expect(refused.payment_status).not.toBe("paid");
      const accounts = await db.ledgerAccount.findMany({ where: { owner: merchant.merchantId } });
      expect(accounts.every((account) => account.balance.isZero())).toBe(true);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER ${trigger} ON webhook_events`);
      await db.$executeRawUnsafe(`DROP FUNCTION ${trigger}()`);
    }
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 1 }, merchant);
    const paid = (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant)).body.result;
    expect(paid.payment_status).toBe("paid");
    const list = await callSigned("/v1/events/list", { object_id: invoice.uuid }, merchant);
    expect(list.status).toBe(200);
    expect(list.body.result.items).toHaveLength(1);
    const [event] = list.body.result.items;
    expect(event).toMatchObject({ type: "invoice.paid", object_id: invoice.uuid, data: { type: "payment", uuid: invoice.uuid, status: "paid", is_final: true } });
  });

  it("records the event of a merchant with no endpoint and no url_callback, with no delivery", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant);
    const events = (await callSigned("/v1/events/list", {}, merchant)).body.result;
    expect(events.paginate).toEqual({ count: 1, next_cursor: null });
    expect(events.items[0]).toMatchObject({
      type: "invoice.paid",
      object_id: paid.uuid,
      data: { uuid: paid.uuid, order_id: paid.order_id, status: "paid" },
      deliveries: { count: 0, delivered: 0, pending: 0, dead: 0, last_status: null },
    });
    expect(await getTestDb().webhookDelivery.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
    // A resend that reaches nobody is refused and leaves no second event behind.
    expect((await callSigned("/v1/payment/resend", { uuid: paid.uuid }, merchant)).body.error.code).toBe("webhook.no_endpoint");
    expect((await callSigned("/v1/events/list", {}, merchant)).body.result.paginate.count).toBe(1);
  });

  it("links each delivery to its event, in the deliveries log and on the wire", async () => {
    const merchant = await makeMerchant();
    const target = await receiver();
    await registerEndpoint(merchant, target.url);
    const paid = await payInvoice(merchant);
    const [event] = (await callSigned("/v1/events/list", { object_id: paid.uuid }, merchant)).body.result.items;
    expect(event.deliveries).toMatchObject({ count: 1 });
    const log = (await callSigned("/v1/webhooks/deliveries", {}, merchant)).body.result.deliveries;
    expect(log[0]).toMatchObject({ event_id: event.id, event_type: "invoice.paid", url: target.url });
    await deliverFor(merchant);
    expect(target.received).toHaveLength(1);
    expect(target.received[0].headers["x-webhook-event-id"]).toBe(event.id);
    expect(target.received[0].headers["x-webhook-id"]).toBe(log[0].id);
    expect(JSON.parse(target.received[0].rawBody)).toEqual(event.data);
    const info = (await callSigned("/v1/events/info", { id: event.id }, merchant)).body.result;
    expect(info.deliveries).toEqual([expect.objectContaining({ id: log[0].id, event_id: event.id, status: "delivered", attempts: 1, last_error: "" })]);
  });

  it("records a batch of events with one statement per table, each delivery pointing at its event", async () => {
    const merchant = await makeMerchant();
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: inject("databaseUrl"), max: 1 }), log: [{ emit: "event", level: "query" }] });
    const statements: string[] = [];
    db.$on("query", (event) => statements.push(event.query));
    try {
      const now = new Date();
      const recorded = await withTransaction(db, (tx) =>
        recordWebhookEvents(
          tx,
          Array.from({ length: 30 }, () => {
            const uuid = randomUUID();
            return { merchantId: merchant.merchantId, eventType: "payout.approved", objectId: uuid, body: payoutBody(uuid, "process"), callbackUrl: "https://merchant.example/cb", now };
          }),
        ),
      );
      const inserts = statements.filter((statement) => /^\s*INSERT/i.test(statement));
      expect(inserts.filter((statement) => statement.includes("webhook_events"))).toHaveLength(1);
      expect(inserts.filter((statement) => statement.includes("webhook_deliveries"))).toHaveLength(1);
      expect(statements.filter((statement) => statement.includes("webhook_endpoints"))).toHaveLength(1);
      expect(new Set(recorded.map((event) => event.eventId)).size).toBe(30);
      const deliveries = await getTestDb().webhookDelivery.findMany({ where: { merchantId: merchant.merchantId } });
      expect(deliveries).toHaveLength(30);
      for (const event of recorded) {
        expect(event.deliveryIds).toHaveLength(1);
        expect(deliveries.find((delivery) => delivery.id === event.deliveryIds[0])?.eventId).toBe(event.eventId);
      }
    } finally {
      await db.$disconnect();
    }
  });
});

describe("POST /v1/events/list", () => {
  async function merchantWithEvents() {
    const merchant = await makeMerchant();
    const base = Date.now() - 10 * 60_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    const invoiceId = randomUUID();
    const payoutId = randomUUID();
    const recorded = await recordEvents([
      { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: invoiceId, body: paymentBody(invoiceId), now: at(1) },
      { merchantId: merchant.merchantId, eventType: "invoice.expired", objectId: randomUUID(), body: paymentBody(randomUUID(), "cancel"), now: at(2) },
      { merchantId: merchant.merchantId, eventType: "payout.approved", objectId: payoutId, body: payoutBody(payoutId, "process"), now: at(3) },
      { merchantId: merchant.merchantId, eventType: "payout.confirmed", objectId: payoutId, body: payoutBody(payoutId), now: at(4) },
      { merchantId: merchant.merchantId, eventType: "invoice.paid_over", objectId: randomUUID(), body: paymentBody(randomUUID(), "paid_over"), now: at(5) },
    ]);
    return { merchant, invoiceId, payoutId, at, ids: recorded.map((event) => event.eventId) };
  }

  const typesOf = (items: { type: string }[]) => items.map((item) => item.type);

  it("answers every event newest first, with its body parsed as delivered", async () => {
    const { merchant, ids, payoutId } = await merchantWithEvents();
    const page = (await callSigned("/v1/events/list", {}, merchant)).body.result;
    expect(page.items.map((item: { id: string }) => item.id)).toEqual([...ids].reverse());
    expect(typesOf(page.items)).toEqual(["invoice.paid_over", "payout.confirmed", "payout.approved", "invoice.expired", "invoice.paid"]);
    expect(page.items[1]).toMatchObject({ object_id: payoutId, data: payoutBody(payoutId) });
  });

  it("filters by exact type, by several types and by prefix", async () => {
    const { merchant } = await merchantWithEvents();
    const list = async (type: unknown) => typesOf((await callSigned("/v1/events/list", { type }, merchant)).body.result.items);
    expect(await list("invoice.paid")).toEqual(["invoice.paid"]);
    expect(await list(["invoice.paid", "payout.confirmed"])).toEqual(["payout.confirmed", "invoice.paid"]);
    expect(await list("invoice.*")).toEqual(["invoice.paid_over", "invoice.expired", "invoice.paid"]);
    expect(await list(["payout.*", "invoice.expired"])).toEqual(["payout.confirmed", "payout.approved", "invoice.expired"]);
    expect(await list("wallet.paid")).toEqual([]);
  });

  it("filters by object and by time (date_from inclusive, date_to exclusive)", async () => {
    const { merchant, payoutId, at } = await merchantWithEvents();
    const byObject = (await callSigned("/v1/events/list", { object_id: payoutId.toUpperCase() }, merchant)).body.result.items;
    expect(typesOf(byObject)).toEqual(["payout.confirmed", "payout.approved"]);
    const window = (await callSigned("/v1/events/list", { date_from: at(2).toISOString(), date_to: at(4).toISOString() }, merchant)).body.result.items;
    expect(typesOf(window)).toEqual(["payout.approved", "invoice.expired"]);
    const withOffset = (await callSigned("/v1/events/list", { date_from: at(4).toISOString().replace("Z", "+00:00") }, merchant)).body.result.items;
    expect(typesOf(withOffset)).toEqual(["invoice.paid_over", "payout.confirmed"]);
  });

  it("pages with an opaque cursor until next_cursor is null, without repeating or skipping", async () => {
    const { merchant, ids } = await merchantWithEvents();
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await callSigned("/v1/events/list", { limit: 2, ...(cursor ? { cursor } : {}) }, merchant)).body.result;
      expect(page.paginate.count).toBe(page.items.length);
      seen.push(...page.items.map((item: { id: string }) => item.id));
      cursor = page.paginate.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it("clamps limit as the other lists do: outside 1–100 it is 20", async () => {
    const merchant = await makeMerchant();
    const now = Date.now();
    await recordEvents(
      Array.from({ length: 25 }, (_, index) => {
        const uuid = randomUUID();
        return { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body: paymentBody(uuid), now: new Date(now - index * 1000) };
      }),
    );
    const count = async (limit: number) => (await callSigned("/v1/events/list", { limit }, merchant)).body.result.paginate.count;
    expect(await count(0)).toBe(20);
    expect(await count(101)).toBe(20);
    expect(await count(-5)).toBe(20);
    expect(await count(1)).toBe(1);
    expect(await count(100)).toBe(25);
  });

  it("shows only the caller's events", async () => {
    const { merchant } = await merchantWithEvents();
    const other = await makeMerchant();
    expect((await callSigned("/v1/events/list", {}, other)).body.result).toEqual({ items: [], paginate: { count: 0, next_cursor: null } });
    expect((await callSigned("/v1/events/list", {}, merchant)).body.result.paginate.count).toBe(5);
  });

  it.each([
    [{ type: "invoice" }, "event.bad_type"],
    [{ type: "invoice.*.paid" }, "event.bad_type"],
    [{ type: [] }, "event.bad_type"],
    [{ type: 7 }, "event.bad_type"],
    [{ object_id: "not-a-uuid" }, "event.bad_object_id"],
    [{ date_from: "yesterday" }, "event.bad_date"],
    [{ date_to: "2026-11-01T00:00:00" }, "event.bad_date"],
    [{ cursor: "bm9wZQ" }, "event.bad_cursor"],
    [{ cursor: 5 }, "event.bad_cursor"],
    [{ limit: "ten" }, "event.bad_request"],
    [[], "event.bad_request"],
  ])("refuses %j with %s", async (body, code) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/events/list", body, merchant);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
  });

  it("is for unified keys only", async () => {
    const merchant = await makeMerchant({ kind: "payment" });
    expect((await callSigned("/v1/events/list", {}, merchant)).body.error.code).toBe("merchant.wrong_key_kind");
  });
});

describe("POST /v1/events/info", () => {
  it("answers the event with its deliveries, and event.not_found to another merchant", async () => {
    const merchant = await makeMerchant();
    const uuid = randomUUID();
    const [recorded] = await recordEvents([
      { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body: paymentBody(uuid), callbackUrl: "https://merchant.example/cb", now: new Date(), endpointUrl: "https://merchant.example/hooks" },
    ]);
    const info = await callSigned("/v1/events/info", { id: recorded.eventId.toUpperCase() }, merchant);
    expect(info.status).toBe(200);
    expect(info.body.result).toMatchObject({ id: recorded.eventId, type: "invoice.paid", object_id: uuid, data: paymentBody(uuid) });
    expect(info.body.result.deliveries.map((delivery: { url: string }) => delivery.url).sort()).toEqual(["https://merchant.example/cb", "https://merchant.example/hooks"]);
    expect(info.body.result.deliveries.every((delivery: { event_id: string; status: string; attempts: number }) => delivery.event_id === recorded.eventId && delivery.status === "pending" && delivery.attempts === 0)).toBe(true);

    const other = await makeMerchant();
    const refused = await callSigned("/v1/events/info", { id: recorded.eventId }, other);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("event.not_found");
    expect((await callSigned("/v1/events/info", { id: randomUUID() }, merchant)).body.error.code).toBe("event.not_found");
  });

  it.each([[{ id: "42" }], [{}], [{ id: 42 }]])("refuses %j with event.bad_id", async (body) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/events/info", body, merchant);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("event.bad_id");
  });
});

describe("POST /v1/events/redeliver", () => {
  it("redelivers a payout event to the endpoint: the same bytes and event id, a new delivery id, a valid signature", async () => {
    const { merchant } = await makeFundedMerchant();
    const target = await receiver();
    const secret = await registerEndpoint(merchant, target.url);
    const payout = (await callSigned("/v1/payout", { amount: "10", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: `po-${randomUUID()}` }, merchant)).body.result;
    const [event] = (await callSigned("/v1/events/list", { object_id: payout.uuid, type: "payout.*" }, merchant)).body.result.items;
    expect(event.type).toMatch(/^payout\./);
    await deliverFor(merchant);
    const first = target.received.find((request) => request.headers["x-webhook-event-id"] === event.id)!;
    expect(first).toBeDefined();

    const redelivered = await callSigned("/v1/events/redeliver", { id: event.id }, merchant);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.result).toMatchObject({ event_id: event.id, url: target.url, event_type: event.type, status: "pending", attempts: 0, last_error: "" });
    await deliverFor(merchant);
    const second = target.received.filter((request) => request.headers["x-webhook-event-id"] === event.id).at(-1)!;
    expect(second).not.toBe(first);
    expect(second.rawBody).toBe(first.rawBody);
    expect(second.headers["x-webhook-event"]).toBe(event.type);
    expect(second.headers["x-webhook-id"]).toBe(redelivered.body.result.id);
    expect(second.headers["x-webhook-id"]).not.toBe(first.headers["x-webhook-id"]);
    expect(verifyWebhook({ rawBody: second.rawBody, headers: second.headers as Record<string, string>, secrets: [secret] })).toBe(true);

    const info = (await callSigned("/v1/events/info", { id: event.id }, merchant)).body.result;
    expect(info.deliveries[0]).toMatchObject({ id: redelivered.body.result.id, status: "delivered", attempts: 1 });
    expect(info.deliveries).toHaveLength(2);
    const [summary] = (await callSigned("/v1/events/list", { object_id: payout.uuid, type: event.type }, merchant)).body.result.items;
    expect(summary.deliveries).toEqual({ count: 2, delivered: 2, pending: 0, dead: 0, last_status: "delivered" });
  });

  it("redelivers to a url that passes the SSRF rule, and refuses one that does not", async () => {
    const merchant = await makeMerchant();
    const other = await receiver();
    const uuid = randomUUID();
    const body = buildWalletEventBody({ uuid, wallet_uuid: randomUUID(), order_id: "customer-7", address: TRON_ADDRESS, network: "tron", currency: "USDT", payment_amount: "12", payer_currency: "USDT", txid: "cd".repeat(32), status: "paid", is_final: true });
    const [recorded] = await recordEvents([{ merchantId: merchant.merchantId, eventType: "wallet.paid", objectId: uuid, body, now: new Date() }]);
    const refused = await callSigned("/v1/events/redeliver", { id: recorded.eventId, url: "http://169.254.169.254/latest/meta-data" }, merchant);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("webhook.bad_url");
    const noLoopback = await callSigned("/v1/events/redeliver", { id: recorded.eventId, url: other.url }, merchant, { deps: makeTestDeps({}, { GATEWAY_ALLOW_LOOPBACK_URLS: "0" }) });
    expect(noLoopback.body.error.code).toBe("webhook.bad_url");

    const sent = await callSigned("/v1/events/redeliver", { id: recorded.eventId, url: other.url }, merchant);
    expect(sent.status).toBe(200);
    expect(sent.body.result).toMatchObject({ url: other.url, event_id: recorded.eventId });
    await deliverFor(merchant);
    expect(other.received).toHaveLength(1);
    expect(other.received[0].rawBody).toBe(JSON.stringify(body));
    expect((await callSigned("/v1/events/info", { id: recorded.eventId }, merchant)).body.result.deliveries[0]).toMatchObject({ url: other.url, status: "delivered" });
    expect(other.received[0].headers["x-webhook-event-id"]).toBe(recorded.eventId);
  });

  it("answers webhook.no_endpoint without an endpoint, event.not_found for another merchant's event, event.bad_id for a bad id", async () => {
    const merchant = await makeMerchant();
    const uuid = randomUUID();
    const [recorded] = await recordEvents([{ merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body: paymentBody(uuid), now: new Date() }]);
    const noEndpoint = await callSigned("/v1/events/redeliver", { id: recorded.eventId }, merchant);
    expect(noEndpoint.status).toBe(400);
    expect(noEndpoint.body.error.code).toBe("webhook.no_endpoint");

    const other = await makeMerchant();
    await registerEndpoint(other, (await receiver()).url);
    const foreign = await callSigned("/v1/events/redeliver", { id: recorded.eventId }, other);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("event.not_found");
    expect((await callSigned("/v1/events/redeliver", { id: "x" }, other)).body.error.code).toBe("event.bad_id");
    expect(await getTestDb().webhookDelivery.count({ where: { merchantId: { in: [merchant.merchantId, other.merchantId] } } })).toBe(0);
  });

  it("does not redeliver an event past its 30 days, which the purge may be deleting", async () => {
    const merchant = await makeMerchant();
    await registerEndpoint(merchant, (await receiver()).url);
    const uuid = randomUUID();
    const [recorded] = await recordEvents([{ merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body: paymentBody(uuid), now: new Date(Date.now() - 31 * DAY_MS) }]);
    const refused = await callSigned("/v1/events/redeliver", { id: recorded.eventId }, merchant);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("event.not_found");
    // Only the event's own first delivery: no redelivery was recorded.
    expect(await getTestDb().webhookDelivery.count({ where: { merchantId: merchant.merchantId } })).toBe(recorded.deliveryIds.length);
  });
});

describe("retention", () => {
  it("lists and shows no event past its 30 days, even before the purge has deleted it", async () => {
    const merchant = await makeMerchant();
    const [old, recent] = await recordEvents(
      [31 * DAY_MS, 29 * DAY_MS].map((age) => {
        const uuid = randomUUID();
        return { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body: paymentBody(uuid), now: new Date(Date.now() - age) };
      }),
    );
    expect(await getTestDb().webhookEvent.count({ where: { id: old.eventId } })).toBe(1);
    const listed = (await callSigned("/v1/events/list", {}, merchant)).body.result.items.map((item: { id: string }) => item.id);
    expect(listed).toEqual([recent.eventId]);
    // An explicit window reaching back further does not bring it back.
    const window = (await callSigned("/v1/events/list", { date_from: new Date(Date.now() - 40 * DAY_MS).toISOString() }, merchant)).body.result.items;
    expect(window.map((item: { id: string }) => item.id)).toEqual([recent.eventId]);
    const info = await callSigned("/v1/events/info", { id: old.eventId }, merchant);
    expect(info.status).toBe(404);
    expect(info.body.error.code).toBe("event.not_found");
    expect((await callSigned("/v1/events/info", { id: recent.eventId }, merchant)).status).toBe(200);
    // The purge tests below count what they delete across merchants.
    await getTestDb().webhookEvent.delete({ where: { id: old.eventId } });
  });

  it("deletes events older than 30 days; their final deliveries stay with event_id cleared; a pending delivery keeps its event", async () => {
    const merchant = await makeMerchant();
    const db = getTestDb();
    const now = new Date();
    const make = (ageDays: number) => {
      const uuid = randomUUID();
      return { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body: paymentBody(uuid), now: new Date(now.getTime() - ageDays * DAY_MS), endpointUrl: "https://merchant.example/hooks" };
    };
    const [old, oldPending, young] = await recordEvents([make(31), make(31), make(29)]);
    await db.webhookDelivery.updateMany({ where: { id: { in: [...old.deliveryIds] } }, data: { status: "delivered", deliveredAt: now } });

    const job = PERIODIC_JOBS.find((candidate) => candidate.name === "event.purge")!;
    expect(job).toBeDefined();
    const outcome = await job.run({ ...makeTestDeps(), now: () => now });
    expect(outcome).toEqual({ deleted: 1 });

    const left = await db.webhookEvent.findMany({ where: { merchantId: merchant.merchantId }, select: { id: true } });
    expect(left.map((event) => event.id).sort()).toEqual([oldPending.eventId, young.eventId].sort());
    const kept = await db.webhookDelivery.findUniqueOrThrow({ where: { id: old.deliveryIds[0] } });
    expect(kept).toMatchObject({ eventId: null, status: "delivered" });
    expect((await callSigned("/v1/events/info", { id: old.eventId }, merchant)).body.error.code).toBe("event.not_found");
    const log = (await callSigned("/v1/webhooks/deliveries", {}, merchant)).body.result.deliveries;
    expect(log.find((delivery: { id: string }) => delivery.id === old.deliveryIds[0]).event_id).toBeNull();

    // Once its delivery ends, the pending one's event goes too.
    await db.webhookDelivery.updateMany({ where: { id: { in: oldPending.deliveryIds } }, data: { status: "dead" } });
    expect(await purgeExpiredEvents(db, now)).toBe(1);
    expect(await db.webhookEvent.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });

  it("deletes in bounded chunks, oldest first", async () => {
    const merchant = await makeMerchant();
    const db = getTestDb();
    const now = new Date();
    const recorded = await recordEvents(
      [40, 35, 32].map((ageDays) => {
        const uuid = randomUUID();
        return { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body: paymentBody(uuid), now: new Date(now.getTime() - ageDays * DAY_MS) };
      }),
    );
    expect(await purgeExpiredEvents(db, now, { chunkSize: 1, maxChunks: 2 })).toBe(2);
    const left = await db.webhookEvent.findMany({ where: { merchantId: merchant.merchantId }, select: { id: true } });
    expect(left.map((event) => event.id)).toEqual([recorded[2].eventId]);
    expect(await purgeExpiredEvents(db, now)).toBe(1);
  });
});
