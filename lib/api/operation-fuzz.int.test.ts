import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callApi, callSigned, getTestDb, makeMerchant, signedRequest } from "@/lib/testing/harness";
import { ERROR_CATALOGUE } from "@/lib/errors";
import { FUZZ_SEED, fuzzRuns, hostileBody, hostileValueOver } from "@/lib/testing/fuzz";
import { OPERATIONS } from "./operations";

/** Field names the API uses somewhere: a fuzzed body hits real fields, not only unknown keys. */
const FIELD_NAMES = [
  "amount", "currency", "to_currency", "network", "order_id", "uuid", "url", "url_callback", "url_return", "url_success",
  "lifetime", "accuracy", "is_payment_multiple", "is_refresh", "subtract", "additional_data", "payer_email", "email", "items",
  "on_error", "batch_id", "limit", "offset", "cursor", "status", "date_from", "date_to", "accepted", "cidr", "enabled",
  "overlap_hours", "blocks", "address", "from_address", "step", "currency_from", "course_source", "theme", "link_id", "__proto__",
];

/** A well-formed body per operation: the fuzzer spoils one or two of its fields, so the input reaches past the schema. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  "/v1/payment": { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "fuzz-1", url_callback: "http://127.0.0.1:9/cb", additional_data: "x", lifetime: 3600 },
  "/v1/payment/info": { order_id: "fuzz-1" },
  "/v1/payment/resend": { order_id: "fuzz-1" },
  "/v1/payment/send-email": { order_id: "fuzz-1", email: "a@example.com" },
  "/v1/payment/list": { limit: 5 },
  "/v1/payment/history": { status: "check", currency: "USDT", network: "tron", order_id: "fuzz-1", date_from: "2026-01-01T00:00:00Z" },
  "/v1/payment/batch": { items: [{ amount: "1.00", currency: "USD", order_id: "fuzz-b1" }], on_error: "continue" },
  "/v1/batch/info": { batch_id: "00000000-0000-0000-0000-000000000000", limit: 10, offset: 0 },
  "/v1/payment/accepted/set": { accepted: [{ currency: "USDT", network: "tron" }] },
  "/v1/pay/{id}/select": { currency: "USDT", network: "tron" },
  "/v1/pay/{id}/sandbox-pay": { step: "send" },
  "/v1/sandbox/deposit": { network: "tron", currency: "USDT", address: "TQ3Q6qJXbTUP3T2U1wc6uV4Ht8Y9nCk1ts", amount: "1" },
  "/v1/sandbox/mine": { network: "tron", blocks: 1 },
  "/v1/sandbox/expire": { order_id: "fuzz-1" },
  "/v1/exchange-rate/list": { currency_from: "BTC" },
  "/v1/webhooks": { url: "http://127.0.0.1:9/hook", overlap_hours: 1 },
  "/v1/webhooks/rotate-secret": { overlap_hours: 1 },
  "/v1/webhooks/deliveries": { limit: 5 },
  "/v1/payment/testing-webhook": { url_callback: "http://127.0.0.1:9/cb", currency: "USDT", network: "tron", status: "paid", order_id: "fuzz-1" },
  "/v1/test-webhook/payment": { url_callback: "http://127.0.0.1:9/cb", currency: "USDT", network: "tron", status: "paid" },
  "/v1/api-allowlist/add": { cidr: "10.0.0.0/8" },
  "/v1/api-allowlist/remove": { cidr: "10.0.0.0/8" },
};

/** A body: a valid one with fields spoiled, or one made of the API's field names, or anything JSON can hold. */
const hostileValue = hostileValueOver(FIELD_NAMES);
const hostileBodyFor = (path: string) => hostileBody(VALID_BODIES[path] ?? {}, FIELD_NAMES, hostileValue);
const pathParam = fc.oneof(fc.constantFrom("00000000-0000-0000-0000-000000000000", "%00", "x", "%F0%9F%99%82", "a".repeat(300)), fc.uuid());

/** Fixed seed and a bounded number of runs: the same inputs every time, a few seconds in all. */
const RUNS_PER_OPERATION = fuzzRuns(60);
const SEED = FUZZ_SEED;

// The service must answer every malformed, hostile or oversized body with a documented 4xx
// (or a business answer), never a 5xx, and stay healthy afterwards.
describe("operation table under hostile input", () => {
  it.each(OPERATIONS.map((entry) => [`${entry.method} ${entry.path}`, entry] as const))("%s never answers 5xx", async (_name, entry) => {
    const merchant = await makeMerchant();
    await fc.assert(
      fc.asyncProperty(hostileBodyFor(entry.path), pathParam, async (body, param) => {
        const path = entry.path.replace(/\{\w+\}/g, param);
        const text = JSON.stringify(body) ?? "null";
        const request =
          entry.auth.kind === "signed"
            ? signedRequest(path, text, merchant, { method: entry.method })
            : new Request(`http://gateway.test${path}`, { method: entry.method, headers: { "content-type": "application/json" }, body: entry.method === "GET" ? undefined : text });
        const response = await callApi(request);
        // A documented 503 (a chain or an endpoint unavailable) is an answer; a 500 never is.
        const answer = `${entry.path} with ${text.slice(0, 300)} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
        expect(response.status, answer).not.toBe(500);
        if (response.status >= 500) expect(response.body?.error?.code in ERROR_CATALOGUE, answer).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
    );
    // Still healthy: the database answers and an ordinary call still works.
    await getTestDb().$queryRaw`SELECT 1`;
    const services = await callSigned("/v1/payment/services", {}, merchant);
    expect(services.status).toBe(200);
  });

  it("answers a NUL in order_id with the field's code on info and resend, not a 500", async () => {
    const merchant = await makeMerchant();
    for (const path of ["/v1/payment/info", "/v1/payment/resend"]) {
      const response = await callSigned(path, { order_id: "a\u0000b" }, merchant);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toMatch(/^payment\./);
    }
  });
});
