import { describe, expect, it } from "vitest";
import { buildDeliveryHeaders, signWebhook as serviceSignWebhook } from "@/lib/webhooks/signing";
import { buildPaymentEventBody, buildPayoutEventBody } from "@/lib/webhooks/payloads";
import { constructEvent, signWebhook, verifyWebhook, WebhookVerificationError, type WebhookEvent } from "../src";

// Deliveries as the service signs them (lib/webhooks/signing.ts), checked by the client.

const CURRENT = "whsec_current";
const PREVIOUS = "whsec_previous";
const NOW = 1767225600;

const paymentBody = JSON.stringify(
  buildPaymentEventBody({
    uuid: "3f2b8c1e-6d4a-4f7e-9b21-5c8d0e7a6f13",
    order_id: "order-1",
    amount: "25.00",
    currency: "USD",
    payment_amount: "25.4019",
    payer_amount: "25.4019",
    payer_currency: "USDT",
    status: "paid",
    is_final: true,
    txid: "ab".repeat(32),
    additional_data: "",
  }),
);

function delivery(eventType: string, body: string, secrets: { current: string; previous?: string }, timestamp = NOW) {
  return buildDeliveryHeaders({ id: "0d4c1f5e-8a8b-4c41-9a51-3f0a7b5e2c11", eventId: "3f6c1d2e-8b4a-4c7e-9f10-2a5b6c7d8e9f", eventType, body }, secrets, String(timestamp));
}

describe("verifyWebhook", () => {
  it("signs as the service does", () => {
    expect(signWebhook(CURRENT, String(NOW), paymentBody)).toBe(serviceSignWebhook(CURRENT, String(NOW), paymentBody));
  });

  it("accepts a fresh delivery signed with the secret, from the raw body as a string or bytes", () => {
    const headers = delivery("invoice.paid", paymentBody, { current: CURRENT });
    expect(verifyWebhook({ rawBody: paymentBody, headers, secrets: [CURRENT], nowSeconds: NOW })).toBe(true);
    expect(verifyWebhook({ rawBody: Buffer.from(paymentBody), headers: new Headers(headers), secrets: [CURRENT], nowSeconds: NOW + 300 })).toBe(true);
  });

  it("refuses another secret, a changed body, a stale or future timestamp, and missing headers", () => {
    const headers = delivery("invoice.paid", paymentBody, { current: CURRENT });
    const check = (input: Partial<Parameters<typeof verifyWebhook>[0]>) => verifyWebhook({ rawBody: paymentBody, headers, secrets: [CURRENT], nowSeconds: NOW, ...input });
    expect(check({ secrets: ["whsec_other"] })).toBe(false);
    expect(check({ rawBody: paymentBody.replace('"paid"', '"paid" ') })).toBe(false);
    expect(check({ nowSeconds: NOW + 301 })).toBe(false);
    expect(check({ nowSeconds: NOW - 301 })).toBe(false);
    expect(check({ nowSeconds: NOW + 3600, toleranceSeconds: 3600 })).toBe(true);
    expect(check({ headers: { ...headers, "x-webhook-signature": undefined } })).toBe(false);
    expect(check({ headers: { ...headers, "x-webhook-timestamp": "1767225600.5" } })).toBe(false);
    expect(check({ secrets: [] })).toBe(false);
    expect(check({ secrets: ["", undefined, null] })).toBe(false);
    // 64 characters that are not hex are more than 64 bytes: refused, not thrown.
    expect(check({ headers: { ...headers, "x-webhook-signature": "é".repeat(64) } })).toBe(false);
  });

  it("during a rotation accepts the new secret (X-Webhook-Signature) and the old one (X-Webhook-Signature-Previous)", () => {
    const headers = delivery("invoice.paid", paymentBody, { current: CURRENT, previous: PREVIOUS });
    expect(verifyWebhook({ rawBody: paymentBody, headers, secrets: [CURRENT], nowSeconds: NOW })).toBe(true);
    expect(verifyWebhook({ rawBody: paymentBody, headers, secrets: [PREVIOUS], nowSeconds: NOW })).toBe(true);
    expect(verifyWebhook({ rawBody: paymentBody, headers, secrets: [CURRENT, PREVIOUS], nowSeconds: NOW })).toBe(true);
    expect(verifyWebhook({ rawBody: paymentBody, headers, secrets: ["whsec_other"], nowSeconds: NOW })).toBe(false);
  });

  it("reads header names in any case", () => {
    const headers = Object.fromEntries(Object.entries(delivery("invoice.paid", paymentBody, { current: CURRENT })).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook({ rawBody: paymentBody, headers, secrets: [CURRENT], nowSeconds: NOW })).toBe(true);
  });
});

describe("constructEvent", () => {
  it("verifies, then parses into the event typed by X-Webhook-Event", () => {
    const headers = delivery("invoice.paid", paymentBody, { current: CURRENT });
    const event: WebhookEvent = constructEvent({ rawBody: paymentBody, headers, secrets: [CURRENT], nowSeconds: NOW });
    expect(event).toMatchObject({ type: "invoice.paid", eventId: "3f6c1d2e-8b4a-4c7e-9f10-2a5b6c7d8e9f", deliveryId: "0d4c1f5e-8a8b-4c41-9a51-3f0a7b5e2c11", timestamp: NOW });
    if (event.type !== "invoice.paid") throw new Error("narrowing failed");
    // The body's type comes from the document's `webhooks`: a payment event has `payer_amount`.
    const payerAmount: string = event.body.payer_amount;
    expect(payerAmount).toBe("25.4019");
  });

  it("types payout events by their internal status", () => {
    const body = JSON.stringify(
      buildPayoutEventBody({ uuid: "p1", order_id: "po-1", amount: "10", currency: "USDT", network: "tron", address: "T…", txid: "", status: "paid", is_final: true }),
    );
    const event = constructEvent({ rawBody: body, headers: delivery("payout.confirmed", body, { current: CURRENT }), secrets: [CURRENT], nowSeconds: NOW });
    expect(event.type).toBe("payout.confirmed");
    if (event.type === "payout.confirmed") expect(event.body.status).toBe("paid");
  });

  it("refuses a forged delivery, an unknown event type and a body that is not JSON, each with its reason", () => {
    const reasonOf = (run: () => unknown) => {
      try {
        run();
        return "accepted";
      } catch (error) {
        return error instanceof WebhookVerificationError ? error.reason : "other";
      }
    };
    const headers = delivery("invoice.paid", paymentBody, { current: CURRENT });
    expect(reasonOf(() => constructEvent({ rawBody: paymentBody, headers, secrets: ["whsec_other"], nowSeconds: NOW }))).toBe("bad_signature");
    expect(reasonOf(() => constructEvent({ rawBody: paymentBody, headers: delivery("invoice.refunded", paymentBody, { current: CURRENT }), secrets: [CURRENT], nowSeconds: NOW }))).toBe(
      "unknown_event",
    );
    expect(reasonOf(() => constructEvent({ rawBody: "not json", headers: delivery("invoice.paid", "not json", { current: CURRENT }), secrets: [CURRENT], nowSeconds: NOW }))).toBe("bad_body");
  });
});
