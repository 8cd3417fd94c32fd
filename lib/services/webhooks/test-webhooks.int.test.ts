import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { callSigned, makeMerchant } from "@/lib/testing/harness";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver(status: number | "hang" = 200) {
  const started = await startWebhookReceiver(() => status);
  receivers.push(started);
  return started;
}

/** A loopback port with nothing listening: connections are refused at once. */
const CLOSED_URL = "http://127.0.0.1:9/hook";

describe("POST /v1/test-webhook/payment, /wallet, /payout", () => {
  it("sends an unsigned test payment body with is_test: true and answers the endpoint's status", async () => {
    const merchant = await makeMerchant();
    const target = await receiver(200);
    const response = await callSigned(
      "/v1/test-webhook/payment",
      { url_callback: target.url, currency: "usdt", uuid: "9d5a1b1e-0000-4000-8000-000000000001", order_id: "ord-7", status: "paid_over" },
      merchant,
    );
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ result: true, status_code: 200 });
    const [request] = target.received;
    expect(request.headers["x-webhook-event"]).toBe("invoice.paid_over");
    expect(request.headers["x-webhook-signature"]).toBeUndefined();
    const body = JSON.parse(request.rawBody);
    expect(body).toMatchObject({ type: "payment", uuid: "9d5a1b1e-0000-4000-8000-000000000001", order_id: "ord-7", payer_currency: "USDT", status: "paid_over", is_final: true, is_test: true });
  });

  it("reports a non-2xx answer as result false with its status code", async () => {
    const merchant = await makeMerchant();
    const target = await receiver(500);
    const response = await callSigned("/v1/test-webhook/wallet", { url_callback: target.url }, merchant);
    expect(response.body.result).toEqual({ result: false, status_code: 500 });
    expect(JSON.parse(target.received[0].rawBody)).toMatchObject({ type: "wallet", status: "paid", is_test: true });
  });

  it("sends payout.<internal status> with the coarse status in the body", async () => {
    const merchant = await makeMerchant();
    const target = await receiver(204);
    const response = await callSigned("/v1/test-webhook/payout", { url_callback: target.url, status: "confirmed", network: "TRON" }, merchant);
    expect(response.body.result).toEqual({ result: true, status_code: 204 });
    expect(target.received[0].headers["x-webhook-event"]).toBe("payout.confirmed");
    expect(JSON.parse(target.received[0].rawBody)).toMatchObject({ type: "payout", status: "paid", is_final: true, network: "tron", is_test: true });
  });

  it.each([
    [{}, "webhook.no_url", 400],
    [{ url_callback: "" }, "webhook.no_url", 400],
    [{ url_callback: "gopher://x" }, "webhook.bad_url", 400],
    [{ url_callback: "http://192.168.0.10/hook" }, "webhook.bad_url", 400],
    [{ url_callback: 42 }, "webhook.bad_url", 400],
    [{ url_callback: CLOSED_URL }, "webhook.test_failed", 503],
    [{ url_callback: CLOSED_URL, status: "nonsense" }, "webhook.bad_status", 400],
  ])("answers %j with %s", async (body, code, status) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/test-webhook/payment", body, merchant);
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
  });

  it("is refused to a key kind without the right", async () => {
    const merchant = await makeMerchant({ kind: "payout" });
    const response = await callSigned("/v1/test-webhook/payment", { url_callback: CLOSED_URL }, merchant);
    expect(response.body.error.code).toBe("merchant.wrong_key_kind");
  });
});

describe("POST /v1/payment/testing-webhook (legacy)", () => {
  it("signs with the real secret when it goes to the registered endpoint", async () => {
    const merchant = await makeMerchant();
    const target = await receiver(200);
    const registered = await callSigned("/v1/webhooks", { url: target.url }, merchant);
    const response = await callSigned("/v1/payment/testing-webhook", {}, merchant);
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({ result: true, url: target.url, signed: true, status_code: 200, duration_ms: expect.any(Number) });
    const [request] = target.received;
    const expected = createHmac("sha256", registered.body.secret)
      .update(`${request.headers["x-webhook-timestamp"]}.${request.rawBody}`)
      .digest("hex");
    expect(request.headers["x-webhook-signature"]).toBe(expected);
    expect(JSON.parse(request.rawBody)).toMatchObject({ status: "paid", is_test: true });
  });

  it("sends unsigned to an explicit url, and reports an endpoint that did not answer as a result", async () => {
    const merchant = await makeMerchant();
    const target = await receiver(200);
    const explicit = await callSigned("/v1/payment/testing-webhook", { url: target.url, status: "wrong_amount" }, merchant);
    expect(explicit.body.result).toMatchObject({ result: true, signed: false, status_code: 200 });
    expect(target.received[0].headers["x-webhook-signature"]).toBeUndefined();
    expect(target.received[0].headers["x-webhook-event"]).toBe("invoice.wrong_amount");
    const down = await callSigned("/v1/payment/testing-webhook", { url: CLOSED_URL }, merchant);
    expect(down.status).toBe(200);
    expect(down.body.result).toMatchObject({ result: false, signed: false, error: expect.stringMatching(/network error/) });
    expect(down.body.result.status_code).toBeUndefined();
  });

  it("answers webhook.no_endpoint without a url or a registered endpoint", async () => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/payment/testing-webhook", {}, merchant);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("webhook.no_endpoint");
  });
});
