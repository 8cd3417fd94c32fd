import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callApi, callSigned, getTestDb, makeMerchant, signedRequest } from "@/lib/testing/harness";
import { ERROR_CATALOGUE } from "@/lib/errors";
import { OPERATIONS } from "./operations";

/** Field names the API uses somewhere: a fuzzed body hits real fields, not only unknown keys. */
const FIELD_NAMES = [
  "amount", "currency", "to_currency", "network", "order_id", "uuid", "url", "url_callback", "url_return", "url_success",
  "lifetime", "accuracy", "is_payment_multiple", "is_refresh", "subtract", "additional_data", "payer_email", "email", "items",
  "on_error", "batch_id", "limit", "offset", "cursor", "status", "date_from", "date_to", "accepted", "cidr", "enabled",
  "overlap_hours", "blocks", "address", "from_address", "step", "currency_from", "course_source", "theme", "link_id", "__proto__",
];

const HOSTILE_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\uD800", "\uFFFF", "0", "-1", "1e309", "NaN", "Infinity", "0x10", "1.".repeat(40),
  "9".repeat(400), "x".repeat(5000), "' OR 1=1 --", "${jndi:ldap://x}", "<script>alert(1)</script>", "../../etc/passwd",
  "00000000-0000-0000-0000-000000000000", "not-a-uuid", "http://127.0.0.1:1/", "http://[::1]/", "file:///etc/passwd",
  "2026-13-45T99:99:99Z", "USDT", "tron", "ethereum", "BTC", "🙂", "%00", "\\u0000",
];

const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 64 }), fc.string({ unit: "binary", maxLength: 32 }));
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, 1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const hostileLeaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const { value: hostileValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, hostileLeaf, fc.array(tie("value"), { maxLength: 4 }), tie("object")),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 8 })), tie("value"), { maxKeys: 6 }),
}));
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
function hostileBodyFor(path: string) {
  const valid = VALID_BODIES[path] ?? {};
  const spoiled = fc
    .tuple(fc.subarray(Object.keys(valid)), fc.dictionary(fc.constantFrom(...Object.keys(valid), ...FIELD_NAMES), hostileValue, { maxKeys: 2 }))
    .map(([dropped, replaced]) => ({ ...Object.fromEntries(Object.entries(valid).filter(([key]) => !dropped.includes(key) || key in replaced)), ...replaced }));
  return fc.oneof(
    { weight: 5, arbitrary: spoiled },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileValue, { maxKeys: 8 }) },
    { weight: 1, arbitrary: hostileValue },
  );
}
const pathParam = fc.oneof(fc.constantFrom("00000000-0000-0000-0000-000000000000", "%00", "x", "%F0%9F%99%82", "a".repeat(300)), fc.uuid());

/** Fixed seed and a bounded number of runs: the same inputs every time, a few seconds in all. */
const RUNS_PER_OPERATION = Number(process.env.GATEWAY_FUZZ_RUNS ?? 60);
const SEED = Number(process.env.GATEWAY_FUZZ_SEED ?? 20261124);

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
