import { afterEach, describe, expect, it } from "vitest";
import { isValidSignature } from "@/lib/api/signature";
import { GatewayClient, GatewayError, isGatewayError, type GatewayClientOptions } from "../src";
import { sleep } from "../src/retry";
import { ok, rateLimited, refuse, startScriptedServer, type ScriptedAction, type ScriptedRequest, type ScriptedServer } from "./support/scripted-server";

// The client's retries against a real HTTP server that refuses, drops and stalls on purpose.
// Waits go through an injected sleep that records them, so no test waits for a backoff.

const KEY = { publicId: "pk_test_retries", secret: "sk_test_retries" };
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: (index: number, request: ScriptedRequest) => ScriptedAction) {
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

function clientFor(server: { baseUrl: string }, options: Partial<GatewayClientOptions> = {}) {
  const waits: number[] = [];
  const client = new GatewayClient({
    baseUrl: server.baseUrl,
    ...KEY,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client, waits };
}

function isSignedCorrectly(request: ScriptedRequest): boolean {
  return isValidSignature({
    secret: KEY.secret,
    timestamp: String(request.headers["x-timestamp"]),
    method: request.method,
    path: request.url,
    body: request.body,
    signature: String(request.headers["x-signature"]),
    nowSeconds: Math.floor(Date.now() / 1000),
  });
}

const INVOICE = { uuid: "3f2b8c1e-6d4a-4f7e-9b21-5c8d0e7a6f13", order_id: "order-1" };

describe("an idempotent create", () => {
  it("repeats after 503s with one Idempotency-Key, the same signed bytes and backoff with full jitter", async () => {
    const server = await serve((index) => (index < 2 ? refuse(503, "request.busy") : ok(INVOICE, { "idempotent-replayed": "true" })));
    const { client, waits } = clientFor(server);
    const response = await client.requestWithResponse("/v1/payment", { amount: "10.00", currency: "USD", order_id: "order-1" });

    expect(response).toMatchObject({ result: INVOICE, status: 200, attempts: 3, isReplayed: true, requestId: "req_2" });
    expect(server.received).toHaveLength(3);
    const keys = server.received.map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys)).toEqual(new Set([response.idempotencyKey]));
    expect(new Set(server.received.map((request) => request.body.toString("utf8")))).toEqual(new Set(['{"amount":"10.00","currency":"USD","order_id":"order-1"}']));
    expect(server.received.every(isSignedCorrectly)).toBe(true);
    // full jitter at random 0.5: half of min(20 s, 500 ms × 2^retry)
    expect(waits).toEqual([250, 500]);
  });

  it("gives each logical call its own key, and uses the caller's key when given", async () => {
    const server = await serve(() => ok(INVOICE));
    const { client } = clientFor(server);
    await client.payments.create({ amount: "1", currency: "USD" });
    await client.payments.create({ amount: "1", currency: "USD" });
    await client.payments.create({ amount: "1", currency: "USD" }, { idempotencyKey: "order-1-create" });
    const [first, second, third] = server.received.map((request) => request.headers["idempotency-key"]);
    expect(first).not.toBe(second);
    expect(third).toBe("order-1-create");
  });

  it("repeats after a dropped connection, and while the first attempt is still running (409 idempotency.in_progress)", async () => {
    const server = await serve((index) => (index === 0 ? "drop" : index === 1 ? refuse(409, "idempotency.in_progress") : ok(INVOICE)));
    const { client } = clientFor(server);
    expect(await client.payments.create({ amount: "1", currency: "USD" })).toEqual(INVOICE);
    expect(server.received).toHaveLength(3);
    expect(new Set(server.received.map((request) => request.headers["idempotency-key"])).size).toBe(1);
  });

  it("stops after maxRetries and throws the last refusal", async () => {
    const server = await serve(() => refuse(503, "idempotency.unavailable"));
    const { client, waits } = clientFor(server, { maxRetries: 2 });
    const error = await client.payments.create({ amount: "1", currency: "USD" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ kind: "api", status: 503, code: "idempotency.unavailable", attempts: 3, requestId: "req_2", method: "POST", path: "/v1/payment" });
    expect(server.received).toHaveLength(3);
    expect(waits).toHaveLength(2);
    // The key every attempt sent, for the caller to retry with later rather than make a new one.
    expect((error as GatewayError).idempotencyKey).toBe(server.received[0].headers["idempotency-key"]);
    expect((error as GatewayError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("a write without an idempotency key", () => {
  it("is not repeated after a 503, a dropped connection or a timeout: the service may have acted", async () => {
    const refusing = await serve(() => refuse(503, "request.busy"));
    const error = await clientFor(refusing).client.payouts.approve({ uuid: INVOICE.uuid }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "api", status: 503, code: "request.busy", attempts: 1 });
    expect(refusing.received).toHaveLength(1);

    const dropping = await serve(() => "drop");
    const dropped = await clientFor(dropping).client.payouts.cancel({ uuid: INVOICE.uuid }).catch((caught: unknown) => caught);
    expect(dropped).toMatchObject({ kind: "network", status: null, code: "client.network", attempts: 1 });
    expect(dropping.received).toHaveLength(1);

    const stalling = await serve(() => "hang");
    const stalled = await clientFor(stalling, { timeoutMs: 150 }).client.payouts.approve({ uuid: INVOICE.uuid }).catch((caught: unknown) => caught);
    expect(stalled).toMatchObject({ kind: "timeout", code: "client.timeout", attempts: 1 });
    expect(stalling.received).toHaveLength(1);
  });

  it("is repeated after a 429, which the service answers before doing anything, waiting Retry-After", async () => {
    const server = await serve((index) => (index === 0 ? rateLimited(2) : ok({ uuid: INVOICE.uuid, status: "process" })));
    const { client, waits } = clientFor(server);
    expect(await client.payouts.approve({ uuid: INVOICE.uuid })).toEqual({ uuid: INVOICE.uuid, status: "process" });
    expect(waits).toEqual([2000]);
    expect(server.received).toHaveLength(2);
    expect(server.received.every(isSignedCorrectly)).toBe(true);
  });

  it("is repeated when the connection is refused: nothing was sent", async () => {
    const closed = await serve(() => ok({}));
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);
    const { client, waits } = clientFor(closed, { maxRetries: 2 });
    const error = await client.payouts.approve({ uuid: INVOICE.uuid }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "network", code: "client.network", attempts: 3 });
    expect((error as Error).message).toContain("ECONNREFUSED");
    expect(waits).toEqual([250, 500]);
  });
});

describe("a read", () => {
  it("is repeated after a timeout, a dropped connection, a 502 and a 500", async () => {
    const script: ScriptedAction[] = ["hang", "drop", { status: 502, body: "<html>bad gateway</html>" }, refuse(500, "internal.error"), ok(INVOICE)];
    const server = await serve((index) => script[index]);
    const { client } = clientFor(server, { timeoutMs: 150, maxRetries: 4 });
    const response = await client.requestWithResponse("/v1/payment/info", { uuid: INVOICE.uuid });
    expect(response).toMatchObject({ result: INVOICE, attempts: 5, idempotencyKey: null });
    expect(server.received.every((request) => request.headers["idempotency-key"] === undefined)).toBe(true);
  });
});

describe("rate limiting", () => {
  it("gives up after maxRetries with a rate_limited error carrying Retry-After", async () => {
    const server = await serve(() => rateLimited(1));
    const { client, waits } = clientFor(server);
    const error = await client.payments.info({ uuid: INVOICE.uuid }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "rate_limited", status: 429, code: "request.rate_limited", retryAfterSeconds: 1, attempts: 4, message: "Too many requests" });
    expect(waits).toEqual([1000, 1000, 1000]);
  });

  it("does not wait for a Retry-After longer than the backoff cap: the caller decides", async () => {
    const server = await serve(() => rateLimited(120));
    const { client, waits } = clientFor(server);
    const error = await client.payments.info({ uuid: INVOICE.uuid }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 120, attempts: 1 });
    expect(waits).toEqual([]);
  });

  it("stops waiting when the caller aborts", async () => {
    const server = await serve(() => rateLimited(1));
    const controller = new AbortController();
    // The real sleep, with word of when the client starts it: the abort comes during the 1 s wait.
    let startWaiting!: () => void;
    const isWaiting = new Promise<void>((resolve) => (startWaiting = resolve));
    const client = new GatewayClient({ baseUrl: server.baseUrl, ...KEY, sleep: (ms, signal) => (startWaiting(), sleep(ms, signal)) });
    const call = client.payments.info({ uuid: INVOICE.uuid }, { signal: controller.signal });
    await isWaiting;
    controller.abort(new Error("caller gave up"));
    await expect(call).rejects.toThrow("caller gave up");
    expect(server.received).toHaveLength(1);
  });
});

describe("answers and refusals", () => {
  it("takes an origin as baseUrl: the signed path is the path sent", () => {
    expect(() => new GatewayClient({ baseUrl: "https://pay.example.com/api", ...KEY })).toThrow(TypeError);
    expect(() => new GatewayClient({ baseUrl: "https://pay.example.com/", ...KEY })).not.toThrow();
  });

  it("throws a typed GatewayError with the service's code, message and X-Request-Id, without retrying", async () => {
    const server = await serve(() => refuse(404, "payment.not_found", { "x-request-id": "req_abc" }));
    const { client } = clientFor(server);
    const error = await client.payments.info({ uuid: INVOICE.uuid }).catch((caught: unknown) => caught);
    expect(isGatewayError(error, "/v1/payment/info")).toBe(true);
    expect(isGatewayError(error, "/v1/payout/info")).toBe(false);
    if (!isGatewayError(error, "/v1/payment/info")) throw error;
    // `code` is the union of the document's codes for this operation: a misspelling does not compile.
    const isNotFound = error.code === "payment.not_found";
    expect(isNotFound).toBe(true);
    expect(error).toMatchObject({ kind: "api", status: 404, message: "refused: payment.not_found", requestId: "req_abc", attempts: 1 });
  });

  it("reports a body that is not the API's as client.bad_response", async () => {
    const server = await serve(() => ({ status: 200, body: "not json" }));
    const error = await clientFor(server).client.payments.info({ uuid: INVOICE.uuid }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "api", status: 200, code: "client.bad_response" });
  });

  it("sends public operations unsigned with their path segments encoded, and keeps bare bodies whole", async () => {
    const server = await serve((_, request) => (request.url === "/v1/currencies" ? { status: 200, body: { pricing_currencies: [] } } : ok({ uuid: "a/b" })));
    const { client } = clientFor(server);
    expect(await client.catalogue.currencies()).toEqual({ pricing_currencies: [] });
    expect(await client.payments.hosted("a/b")).toEqual({ uuid: "a/b" });
    expect(server.received.map((request) => `${request.method} ${request.url}`)).toEqual(["GET /v1/currencies", "GET /v1/pay/a%2Fb"]);
    expect(server.received.every((request) => request.headers["x-signature"] === undefined && request.headers["x-public-id"] === undefined)).toBe(true);
  });

  it("sends `{}` for a read called without a body", async () => {
    const server = await serve(() => ok({ balances: [] }));
    await clientFor(server).client.payouts.balance();
    expect(server.received[0].body.toString()).toBe("{}");
    expect(isSignedCorrectly(server.received[0])).toBe(true);
  });
});

describe("paginate", () => {
  it("follows next_cursor until it is null, carrying the filter on every page", async () => {
    const pages: Record<string, { items: { uuid: string }[]; next_cursor: string | null }> = {
      "": { items: [{ uuid: "a" }, { uuid: "b" }], next_cursor: "c1" },
      c1: { items: [{ uuid: "c" }], next_cursor: "c2" },
      c2: { items: [], next_cursor: null },
    };
    const server = await serve((_, request) => {
      const body = JSON.parse(request.body.toString()) as { cursor?: string };
      const page = pages[body.cursor ?? ""];
      return ok({ items: page.items, paginate: { count: page.items.length, next_cursor: page.next_cursor } });
    });
    const seen: string[] = [];
    for await (const invoice of clientFor(server).client.paginate("/v1/payment/history", { status: "paid", limit: 2 })) seen.push(invoice.uuid);
    expect(seen).toEqual(["a", "b", "c"]);
    expect(server.received.map((request) => JSON.parse(request.body.toString()))).toEqual([
      { status: "paid", limit: 2 },
      { status: "paid", limit: 2, cursor: "c1" },
      { status: "paid", limit: 2, cursor: "c2" },
    ]);
  });
});
