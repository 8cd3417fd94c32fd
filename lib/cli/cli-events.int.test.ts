import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { payInvoice } from "@/lib/testing/funding";
import { getTestDb, getTestSecretBox, makeMerchant } from "@/lib/testing/harness";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { getSigningSecrets } from "@/lib/webhooks/signing-secrets";
import { verifyWebhook } from "@/lib/webhooks/signing";
import { recordWebhookEvents } from "@/lib/webhooks/record-event";
import { withTransaction } from "@/lib/db/transaction";
import { runCli, startCli } from "./testing/cli-process";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("events, listen and trigger", () => {
  it("listen forwards a sandbox payment's event to a local receiver, signed as real deliveries are, until Ctrl-C", { timeout: 300_000 }, async () => {
    const merchant = await makeMerchant();
    const receiver = await startWebhookReceiver();
    const listener = startCli(["listen", "--merchant", merchant.merchantId, "--forward-to", receiver.url, "--events", "invoice.paid,payout.*", "--json"]);
    try {
      await listener.printedOnStderr("Ready!");
      // No endpoint is registered: listen reads the event log, not the deliveries.
      const paid = await payInvoice(merchant, "30.00");
      await expect.poll(() => receiver.received.length, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(1);
      const event = await getTestDb().webhookEvent.findFirstOrThrow({ where: { merchantId: merchant.merchantId, type: "invoice.paid", objectId: paid.uuid } });
      const [forwarded] = receiver.received;
      expect(forwarded.rawBody).toBe(event.body);
      expect(forwarded.headers["content-type"]).toBe("application/json");
      expect(forwarded.headers["x-webhook-event"]).toBe("invoice.paid");
      expect(forwarded.headers["x-webhook-event-id"]).toBe(event.id);
      expect(forwarded.headers["x-webhook-id"]).toMatch(UUID);
      const secrets = await getSigningSecrets(getTestDb(), getTestSecretBox(), merchant.merchantId, new Date());
      expect(verifyWebhook({ rawBody: forwarded.rawBody, headers: forwarded.headers as Record<string, string>, secrets: [secrets.current] })).toBe(true);
      expect(verifyWebhook({ rawBody: forwarded.rawBody, headers: forwarded.headers as Record<string, string>, secrets: ["whsec_another"] })).toBe(false);

      listener.child.kill("SIGINT");
      const stopped = await listener.exited;
      expect(stopped.status, stopped.stderr).toBe(0);
      expect(stopped.stdout.trimEnd().split("\n")).toHaveLength(1);
      expect(stopped.json).toEqual({
        merchant_id: merchant.merchantId,
        forward_to: receiver.url,
        forwarded: 1,
        items: [{ event_id: event.id, type: "invoice.paid", object_id: paid.uuid, status_code: 200, duration_ms: expect.any(Number) }],
      });
    } finally {
      listener.child.kill("SIGKILL");
      await receiver.close();
    }
  });

  it("listen goes by the events' own time, not its machine's: an event stamped minutes behind this clock is forwarded", { timeout: 120_000 }, async () => {
    const merchant = await makeMerchant();
    const receiver = await startWebhookReceiver();
    const listener = startCli(["listen", "--merchant", merchant.merchantId, "--forward-to", receiver.url, "--json"]);
    try {
      await listener.printedOnStderr("Ready!");
      // As recorded by a service whose clock is ten minutes behind the CLI's machine.
      const lagging = (minutesBehind: number) => {
        const uuid = randomUUID();
        return { merchantId: merchant.merchantId, eventType: "invoice.paid", objectId: uuid, body: { uuid }, now: new Date(Date.now() - minutesBehind * 60_000) };
      };
      const [first] = await withTransaction(getTestDb(), (tx) => recordWebhookEvents(tx, [lagging(10)]));
      await expect.poll(() => receiver.received.length, { timeout: 30_000, interval: 100 }).toBe(1);
      const [second] = await withTransaction(getTestDb(), (tx) => recordWebhookEvents(tx, [lagging(10)]));
      await expect.poll(() => receiver.received.length, { timeout: 30_000, interval: 100 }).toBe(2);
      expect(receiver.received.map((delivery) => delivery.headers["x-webhook-event-id"])).toEqual([first.eventId, second.eventId]);
      listener.child.kill("SIGINT");
      expect((await listener.exited).json).toMatchObject({ forwarded: 2 });
    } finally {
      listener.child.kill("SIGKILL");
      await receiver.close();
    }
  });

  it("trigger makes the event really happen on a sandbox chain; events list and resend find it", { timeout: 400_000 }, async () => {
    const [merchant, payoutMerchant] = await Promise.all([makeMerchant(), makeMerchant()]);
    const [invoicePaid, payoutConfirmed, refused] = await Promise.all([
      runCli(["trigger", "invoice.paid", "--merchant", merchant.merchantId, "--json"]),
      // A merchant without a balance: trigger funds it with a paid invoice first.
      runCli(["trigger", "payout.confirmed", "--merchant", payoutMerchant.merchantId, "--json"]),
      runCli(["trigger", "invoice.paid", "--merchant", merchant.merchantId, "--json"], { GATEWAY_SANDBOX: "0" }),
    ]);
    const db = getTestDb();

    expect(invoicePaid.status, invoicePaid.stderr).toBe(0);
    expect(invoicePaid.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(invoicePaid.json).toMatchObject({ event: { merchant_id: merchant.merchantId, type: "invoice.paid", data: { type: "payment", status: "paid" } }, object: { kind: "invoice" } });
    const invoice = await db.invoice.findUniqueOrThrow({ where: { id: invoicePaid.json.object.id } });
    expect([invoice.merchantId, invoice.status]).toEqual([merchant.merchantId, "paid"]);
    const event = await db.webhookEvent.findUniqueOrThrow({ where: { id: invoicePaid.json.event.id } });
    expect([event.merchantId, event.type, event.objectId]).toEqual([merchant.merchantId, "invoice.paid", invoice.id]);

    expect(payoutConfirmed.status, payoutConfirmed.stderr).toBe(0);
    expect(payoutConfirmed.json).toMatchObject({ event: { type: "payout.confirmed", data: { type: "payout", status: "paid", is_final: true } }, object: { kind: "payout" }, funded_by_invoice: expect.stringMatching(UUID) });
    const payout = await db.payout.findUniqueOrThrow({ where: { id: payoutConfirmed.json.object.id } });
    expect([payout.merchantId, payout.status]).toEqual([payoutMerchant.merchantId, "confirmed"]);
    const payoutEvents = await db.webhookEvent.findMany({ where: { objectId: payout.id }, orderBy: { createdAt: "asc" } });
    expect(payoutEvents.map((row) => row.type)).toEqual(expect.arrayContaining(["payout.approved", "payout.sent", "payout.confirmed"]));

    expect(refused.status).toBe(1);
    expect(refused.json.error.code).toBe("cli.sandbox_off");
    expect(refused.stderr).toMatch(/sandbox mode is off/);

    const receiver = await startWebhookReceiver();
    try {
      const [listed, everyone, unknown] = await Promise.all([
        runCli(["events", "list", "--merchant", merchant.merchantId, "--type", "invoice.*", "--json"]),
        runCli(["events", "list", "--type", "invoice.paid,payout.confirmed", "--limit", "100", "--json"]),
        runCli(["events", "resend", randomUUID(), "--json"]),
      ]);
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.json.items).toEqual([
        {
          merchant_id: merchant.merchantId,
          id: event.id,
          type: "invoice.paid",
          object_id: invoice.id,
          created_at: event.createdAt.toISOString(),
          data: JSON.parse(event.body),
          deliveries: { count: 0, delivered: 0, pending: 0, dead: 0, last_status: null },
        },
      ]);

      expect(everyone.status, everyone.stderr).toBe(0);
      const times = everyone.json.items.map((item: { created_at: string }) => item.created_at);
      expect(times).toEqual([...times].sort().reverse());
      expect(everyone.json.items.every((item: { merchant_id: string; type: string }) => UUID.test(item.merchant_id) && ["invoice.paid", "payout.confirmed"].includes(item.type))).toBe(true);

      const resent = await runCli(["events", "resend", event.id, "--url", receiver.url, "--json"]);
      expect(resent.status, resent.stderr).toBe(0);
      expect(resent.json).toMatchObject({ merchant_id: merchant.merchantId, delivery: { event_id: event.id, url: receiver.url, event_type: "invoice.paid", status: "pending" } });
      const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: resent.json.delivery.id } });
      expect([delivery.eventId, delivery.body]).toEqual([event.id, event.body]);

      expect(unknown.status).toBe(1);
      expect(unknown.json.error.code).toBe("cli.not_found");
    } finally {
      await receiver.close();
    }
  });
});
