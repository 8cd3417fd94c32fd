import { describe, expect, it } from "vitest";
import { buildDeliveryHeaders, verifyWebhook } from "./signing";

describe("buildDeliveryHeaders", () => {
  const secrets = { current: "whsec_current" };
  const body = '{"type":"payout","uuid":"u"}';

  it("names the delivery in X-Webhook-Id and the event in X-Webhook-Event-Id, signed over the body", () => {
    const headers = buildDeliveryHeaders({ id: "delivery-1", eventId: "event-1", eventType: "payout.confirmed", body }, secrets, "1795669788");
    expect(headers["x-webhook-id"]).toBe("delivery-1");
    expect(headers["x-webhook-event-id"]).toBe("event-1");
    expect(headers["x-webhook-event"]).toBe("payout.confirmed");
    expect(verifyWebhook({ rawBody: body, headers, secrets: [secrets.current], nowSeconds: 1795669788 })).toBe(true);
  });

  it("leaves X-Webhook-Event-Id out where no event was recorded", () => {
    expect(buildDeliveryHeaders({ id: "d", eventType: "invoice.paid", body }, secrets, "1")).not.toHaveProperty("x-webhook-event-id");
    expect(buildDeliveryHeaders({ id: "d", eventId: null, eventType: "invoice.paid", body }, secrets, "1")).not.toHaveProperty("x-webhook-event-id");
  });
});
