import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fundMerchant, makeBlockedWalletWithHeldDeposit, payInvoice } from "@/lib/testing/funding";
import { callApi, getTestDb, makeMerchant, makeTestDeps, signedRequest, type TestMerchant } from "@/lib/testing/harness";
import { MAX_BODY_BYTES } from "./dispatch";
import { hashRequestBody } from "./idempotency";
import { OPERATIONS } from "./operations";
import { createRateLimiter } from "./rate-limit";

// Table-driven conformance for the operations the signed suite does not cover: every idempotent
// operation honours Idempotency-Key the same way, every public operation answers without a
// signature, refuses oversized and malformed bodies, and is rate limited per client address.

/**
 * A body each idempotent operation accepts from a fresh merchant (after any set-up it needs);
 * an idempotent operation without one fails here. `isSameOnFreshKey`: the body names its
 * resource (an order_id that is required), so a fresh key answers the same resource.
 */
const CREATING_BODIES: Record<string, { body(merchant: TestMerchant): Promise<object>; isSameOnFreshKey?: boolean }> = {
  "/v1/payment": { body: async () => ({ amount: "12.00", currency: "USD", to_currency: "USDT", network: "tron" }) },
  "/v1/payment/batch": { body: async () => ({ payments: [{ amount: "5.00", currency: "USD", to_currency: "USDT", network: "tron" }] }) },
  "/v1/payout": {
    body: async (merchant) => {
      await fundMerchant(merchant, "50.00");
      return { amount: "5", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: `conformance-${randomUUID()}` };
    },
    isSameOnFreshKey: true,
  },
  "/v1/payment/refund": {
    body: async (merchant) => {
      const paid = await payInvoice(merchant, "50.00");
      return { uuid: paid.uuid, amount: "5" };
    },
    // The triple (payment, address, amount) names the refund: a fresh key finds it again.
    isSameOnFreshKey: true,
  },
  "/v1/refund/batch": { body: async () => ({ refunds: [{ uuid: randomUUID(), amount: "1" }] }) },
  "/v1/payout/batch": { body: async () => ({ payouts: [{ amount: "5", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: "b-1" }] }) },
  "/v1/payout/mass": {
    body: async (merchant) => {
      await fundMerchant(merchant, "50.00");
      return { payouts: [{ amount: "5", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: `mass-${randomUUID()}` }] };
    },
    isSameOnFreshKey: true,
  },
  "/v1/payment/link": { body: async () => ({ title: "Conformance", amount_mode: "fixed", currency: "USD", amount: "10.00" }) },
  // The (order_id, coin, network) names the wallet: a fresh key finds it again.
  "/v1/wallet": { body: async () => ({ currency: "USDT", network: "tron", order_id: "conformance-customer" }), isSameOnFreshKey: true },
  "/v1/wallet/blocked-address-refund": {
    body: async (merchant) => ({ uuid: await makeBlockedWalletWithHeldDeposit(merchant), address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC" }),
    // A repeat finds nothing held any more and answers the refund made.
    isSameOnFreshKey: true,
  },
  "/v1/split/rule": { body: async () => ({ percent: 1.5, address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", network: "tron", note: "conformance" }) },
};

const IDEMPOTENT = OPERATIONS.filter((entry) => entry.idempotent);
const PUBLIC = OPERATIONS.filter((entry) => entry.auth.kind === "public");

describe.each(IDEMPOTENT.map((entry) => [entry.path, entry] as const))("idempotent operation %s", (path) => {
  const send = (merchant: TestMerchant, body: string, key: string) => callApi(signedRequest(path, body, merchant, { headers: { "idempotency-key": key } }));

  it("has a sample body in this table", () => {
    expect(CREATING_BODIES[path], `add ${path} to CREATING_BODIES`).toBeDefined();
  });

  it("runs once per key and replays the stored answer with Idempotent-Replayed: true", async () => {
    const merchant = await makeMerchant();
    const body = JSON.stringify(await CREATING_BODIES[path].body(merchant));
    const key = randomUUID();
    const first = await send(merchant, body, key);
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const repeat = await send(merchant, body, key);
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(repeat.body).toEqual(first.body);
    // A fresh key runs again (and finds the same resource where the body names it).
    const other = await send(merchant, body, randomUUID());
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    if (CREATING_BODIES[path].isSameOnFreshKey) expect(other.body).toEqual(first.body);
    else expect(other.body).not.toEqual(first.body);
  });

  it("answers idempotency.key_reused 422 for the key with another body, and idempotency.bad_key 400 for a malformed key", async () => {
    const merchant = await makeMerchant();
    const body = await CREATING_BODIES[path].body(merchant);
    const key = randomUUID();
    await send(merchant, JSON.stringify(body), key);
    const reused = await send(merchant, JSON.stringify({ ...body, padding: 1 }), key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("idempotency.key_reused");
    const tooLong = await send(merchant, JSON.stringify(body), "k".repeat(256));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe("idempotency.bad_key");
  });

  it("answers idempotency.in_progress 409 while another attempt holds the key", async () => {
    const merchant = await makeMerchant();
    const body = JSON.stringify(await CREATING_BODIES[path].body(merchant));
    const key = randomUUID();
    await getTestDb().idempotencyRecord.create({
      data: {
        merchantId: merchant.merchantId,
        operation: path,
        key,
        requestHash: hashRequestBody(Buffer.from(body)),
        claimToken: randomUUID(),
        state: "in_progress",
        lockedUntil: new Date(Date.now() + 60_000),
      },
    });
    const response = await send(merchant, body, key);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("idempotency.in_progress");
  });
});

describe.each(PUBLIC.map((entry) => [`${entry.method} ${entry.path}`, entry] as const))("public operation %s", (_name, entry) => {
  const url = (id: string) => `http://gateway.test${entry.path.replace(/\{\w+\}/g, id)}`;
  const request = (body: string | undefined, headers: Record<string, string> = {}) =>
    new Request(url(randomUUID()), { method: entry.method, headers: { "content-type": "application/json", ...headers }, body: entry.method === "GET" ? undefined : body });

  it("answers without a signature: never 401", async () => {
    const response = await callApi(request("{}"));
    expect(response.status).not.toBe(401);
    expect(response.status).toBeLessThan(500);
  });

  it("is rate limited per client address with the spec's 429 body", async () => {
    const deps = makeTestDeps({ rateLimiter: createRateLimiter({ requestsPerSecond: 1, burst: 2 }) });
    const clientIp = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await callApi(request("{}"), { deps, clientIp }));
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited, "the fourth call within a second is limited").toBeDefined();
    expect(limited!.body).toEqual({ state: 1, message: expect.any(String) });
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not.
    expect((await callApi(request("{}"), { deps, clientIp: "203.0.113.9" })).status).not.toBe(429);
  });

});

describe.each(PUBLIC.filter((entry) => entry.method === "POST").map((entry) => [entry.path, entry] as const))("public POST %s", (_name, entry) => {
  const request = (body: string) => new Request(`http://gateway.test${entry.path.replace(/\{\w+\}/g, randomUUID())}`, { method: "POST", headers: { "content-type": "application/json" }, body });

  it("answers request.bad_json 400 and request.too_large 413", async () => {
    const badJson = await callApi(request("{not json"));
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.code).toBe("request.bad_json");
    const tooLarge = await callApi(request(`{"x":"${"a".repeat(MAX_BODY_BYTES)}"}`));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe("request.too_large");
  });
});
