import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { serveApiRequest } from "@/lib/runtime/serve-api";
import { signRequest } from "@/lib/api/signature";
import { findFreePort } from "@/lib/chains/evm/testing/anvil";
import { resetConfig } from "@/lib/config/env";
import { withTransaction } from "@/lib/db/transaction";
import { MAX_WEBHOOK_ATTEMPTS } from "@/lib/domain/webhook-delivery/backoff";
import { attemptDelivery, claimDueDeliveries } from "@/lib/jobs/handlers/deliver-webhooks";
import { formatAmount } from "@/lib/domain/money/amount";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { payInvoice } from "@/lib/testing/funding";
import { getTestDb, getTestSecretBox, makeMerchant, makeTestConfig, TEST_MASTER_KEY, type TestMerchant } from "@/lib/testing/harness";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";
import { createGatewayMetrics } from "./registry";
import { startMetricsEndpoint, type MetricsEndpoint } from "./serve-metrics";
import type { MetricsSource } from "./service-state";
import { parsePrometheusText, sampleValue, type PrometheusScrape } from "./testing/parse-prometheus-text";

// /metrics over real HTTP, beside the API served by serveApiRequest (npm start's /v1 handler,
// whose module registers the metrics observer), on the run's PostgreSQL database.

/** The scrape-time clock: a day ahead, so the deliveries recorded here are due for no other file's dispatcher. */
let clock = new Date(Date.now() + 86_400_000);
const advanceClock = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));
/** Merchant-owned gauges count only this file's merchants: other files share the database. */
const scope: string[] = [];

let service: { url: string; close(): Promise<void> };
let endpoint: MetricsEndpoint;
let receiver: WebhookReceiver;

/** The service's listener as lib/runtime/start.ts builds it: /metrics first, then the API. */
async function startService(metricsEndpoint: MetricsEndpoint): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (metricsEndpoint.handleOnServicePort(request, response)) return;
    void serveApiRequest(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sourceOf(): MetricsSource {
  return { db: getTestDb(), secretBox: getTestSecretBox(), config: makeTestConfig(), now: () => clock, onlyMerchantIds: scope };
}

beforeAll(async () => {
  // handleApiRequest builds its collaborators from the environment, as in the running service.
  Object.assign(process.env, {
    DATABASE_URL: inject("databaseUrl"),
    GATEWAY_MASTER_KEY: TEST_MASTER_KEY,
    GATEWAY_SANDBOX: "1",
    GATEWAY_RATE_LIMIT_RPS: "100000",
    GATEWAY_RATE_LIMIT_BURST: "100000",
    PUBLIC_BASE_URL: "http://gateway.test",
  });
  resetConfig();
  endpoint = await startMetricsEndpoint(makeTestConfig(), { source: sourceOf(), stateOptions: { auditWaitMs: 60_000, databaseTimeoutMs: 30_000 } });
  service = await startService(endpoint);
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await service?.close();
  await endpoint?.close();
  await receiver?.close();
  if (scope.length) await getTestDb().webhookDelivery.deleteMany({ where: { merchantId: { in: scope } } });
});

async function scrape(url = `${service.url}/metrics`, headers: Record<string, string> = {}): Promise<PrometheusScrape> {
  const response = await fetch(url, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4(;|$)/);
  return parsePrometheusText(await response.text());
}

async function callApi(path: string, init: { method?: string; value?: unknown; key?: TestMerchant } = {}) {
  const method = init.method ?? "POST";
  const body = method === "GET" ? undefined : JSON.stringify(init.value ?? {});
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.key) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    Object.assign(headers, { "x-timestamp": timestamp, "x-public-id": init.key.publicId, "x-signature": signRequest(init.key.secret, timestamp, method, path, body ?? "") });
  }
  const response = await fetch(`${service.url}${path}`, { method, headers, body });
  const answer = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: answer.error?.code ?? "" };
}

describe("GET /metrics", () => {
  it("answers the Prometheus text format with the service's families and the process metrics", async () => {
    const scraped = await scrape();
    expect(scraped.types.get("gateway_api_requests_total")).toBe("counter");
    expect(scraped.types.get("gateway_api_request_duration_seconds")).toBe("histogram");
    expect(scraped.types.get("gateway_webhook_attempts_total")).toBe("counter");
    for (const gauge of ["gateway_webhook_queue_depth", "gateway_payout_queue", "gateway_watcher_lag_blocks", "gateway_ledger_liabilities", "gateway_hot_wallet_balance", "gateway_ledger_audit_drift"]) {
      expect(scraped.types.get(gauge), gauge).toBe("gauge");
    }
    expect(scraped.types.get("process_cpu_seconds_total")).toBe("counter");
    expect(sampleValue(scraped, "process_resident_memory_bytes")).toBeGreaterThan(0);
    const head = await fetch(`${service.url}/metrics`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await fetch(`${service.url}/metrics`, { method: "POST" })).status).toBe(405);
  });

  it("counts API requests per operation template, method, status and code, with their latency", async () => {
    const merchant = await makeMerchant();
    const before = await scrape();
    const calls = [
      ...(await Promise.all([1, 2, 3].map(() => callApi("/v1/payment/list", { key: merchant })))),
      await callApi(`/v1/pay/${randomUUID()}`, { method: "GET" }),
      await callApi(`/v1/pay/${randomUUID()}`, { method: "GET" }),
      await callApi("/v1/pay/not-a-uuid", { method: "GET" }),
      await callApi("/v1/payment/info", { value: { uuid: randomUUID() } }),
      await callApi("/v1/no-such-operation", { method: "GET" }),
    ];
    expect(calls.map((call) => `${call.status} ${call.code}`)).toEqual([
      "200 ",
      "200 ",
      "200 ",
      "404 pay.not_found",
      "404 pay.not_found",
      "400 pay.bad_uuid",
      "401 auth.bad_timestamp",
      "404 request.not_found",
    ]);
    const after = await scrape();
    const increase = (labels: Record<string, string>, name = "gateway_api_requests_total") => (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
    expect(increase({ operation: "/v1/payment/list", method: "POST", status: "200", code: "ok" })).toBe(3);
    expect(increase({ operation: "/v1/pay/{id}", method: "GET", status: "404", code: "pay.not_found" })).toBe(2);
    expect(increase({ operation: "/v1/pay/{id}", method: "GET", status: "400", code: "pay.bad_uuid" })).toBe(1);
    expect(increase({ operation: "/v1/payment/info", method: "POST", status: "401", code: "auth.bad_timestamp" })).toBe(1);
    expect(increase({ operation: "unmatched", method: "GET", status: "404", code: "request.not_found" })).toBe(1);
    expect(increase({ operation: "/v1/payment/list", method: "POST" }, "gateway_api_request_duration_seconds_count")).toBe(3);
    expect(increase({ operation: "/v1/pay/{id}", method: "GET", le: "+Inf" }, "gateway_api_request_duration_seconds_bucket")).toBe(3);
    expect(increase({ operation: "/v1/payment/list", method: "POST" }, "gateway_api_request_duration_seconds_sum")).toBeGreaterThan(0);
    // Labels name templates only: no raw path (an id, a claim token) ever becomes a series.
    expect(after.samples.filter((sample) => sample.labels.operation && !sample.labels.operation.startsWith("/v1/") && sample.labels.operation !== "unmatched")).toEqual([]);
    expect(after.samples.filter((sample) => /[0-9a-f]{8}-/.test(sample.labels.operation ?? "") || sample.labels.operation?.includes("not-a-uuid"))).toEqual([]);
  });

  it("shows the webhook queue moving as deliveries are recorded and attempted, reading the tables at most once per cache period", async () => {
    const merchant = await makeMerchant();
    scope.push(merchant.merchantId);
    advanceClock(10);
    const empty = await scrape();
    expect(sampleValue(empty, "gateway_webhook_queue_depth")).toBe(0);
    expect(sampleValue(empty, "gateway_webhook_queue_oldest_age_seconds")).toBe(0);

    const recordedAt = clock;
    await withTransaction(getTestDb(), async (tx) => {
      for (let event = 0; event < 3; event++) {
        await recordWebhookEvent(tx, {
          merchantId: merchant.merchantId,
          eventType: "payment.paid",
          objectId: randomUUID(),
          body: { event },
          callbackUrl: receiver.url,
          endpointUrl: null,
          now: recordedAt,
        });
      }
    });
    // Within the cache period a scrape answers what the last one read.
    expect(sampleValue(await scrape(), "gateway_webhook_queue_depth")).toBe(0);
    advanceClock(90);
    const recorded = await scrape();
    expect(sampleValue(recorded, "gateway_webhook_queue_depth")).toBe(3);
    expect(sampleValue(recorded, "gateway_webhook_queue_due")).toBe(3);
    expect(sampleValue(recorded, "gateway_webhook_queue_oldest_age_seconds")).toBe(90);

    // One delivered, one failed with a retry to come, one failing its last attempt.
    const attemptsBefore = (outcome: string) => sampleValue(recorded, "gateway_webhook_attempts_total", { outcome }) ?? 0;
    const rows = await getTestDb().webhookDelivery.findMany({ where: { merchantId: merchant.merchantId }, orderBy: { id: "asc" } });
    await getTestDb().webhookDelivery.update({ where: { id: rows[2].id }, data: { attempts: MAX_WEBHOOK_ATTEMPTS - 1 } });
    const claimed = await claimDueDeliveries(getTestDb(), clock, { limit: 10, perMerchantLimit: 10, onlyMerchantIds: [merchant.merchantId] });
    expect(claimed).toHaveLength(3);
    const deps = { db: getTestDb(), secretBox: getTestSecretBox(), now: () => clock, sendOptions: { allowLoopback: true, timeoutMs: 3000 } };
    const answers = new Map([
      [rows[0].id, 200],
      [rows[1].id, 500],
      [rows[2].id, 503],
    ]);
    for (const delivery of claimed) {
      receiver.setBehaviour(() => answers.get(delivery.id)!);
      await attemptDelivery(deps, delivery);
    }

    advanceClock(6);
    const attempted = await scrape();
    expect(sampleValue(attempted, "gateway_webhook_queue_depth")).toBe(1);
    expect(sampleValue(attempted, "gateway_webhook_queue_due")).toBe(0); // its retry waits 10 s
    expect(sampleValue(attempted, "gateway_webhook_queue_oldest_age_seconds")).toBe(96);
    for (const outcome of ["delivered", "failed", "dead"]) {
      expect((sampleValue(attempted, "gateway_webhook_attempts_total", { outcome }) ?? 0) - attemptsBefore(outcome), outcome).toBe(1);
    }
  });

  it("shows what the ledger owes a merchant, and the ledger audit's findings per check", async () => {
    const merchant = await makeMerchant();
    await payInvoice(merchant, "100.00");
    scope.push(merchant.merchantId);
    const owed = (await listMerchantBalances(getTestDb(), merchant.merchantId)).filter((row) => row.asset === "USDT:tron").reduce((sum, row) => sum + row.balance, 0n);
    expect(owed).toBeGreaterThan(0n);
    advanceClock(10);
    const scraped = await scrape();
    expect(sampleValue(scraped, "gateway_ledger_liabilities", { asset: "USDT:tron" })).toBe(Number(formatAmount(owed, 6)));
    for (const check of ["mismatched", "negative", "unbalancedJournals", "payoutsVsHeld"]) {
      expect(sampleValue(scraped, "gateway_ledger_audit_findings", { check }), check).toBeGreaterThanOrEqual(0);
    }
    expect(sampleValue(scraped, "gateway_ledger_audit_drift", { asset: "USDT:tron" })).toBeGreaterThanOrEqual(0);
    expect(sampleValue(scraped, "gateway_ledger_audit_timestamp_seconds")).toBeGreaterThan(0);
    // Sandbox chains are watched too: every served network reports its node and its lag.
    expect(sampleValue(scraped, "gateway_chain_node_up", { network: "tron" })).toBe(1);
  });
});

describe("METRICS_PORT and METRICS_TOKEN", () => {
  it("keeps METRICS_PORT on loopback without a token", async () => {
    const port = await findFreePort();
    const separate = await startMetricsEndpoint(makeTestConfig({ METRICS_PORT: String(port) }), { source: sourceOf(), metrics: createGatewayMetrics() });
    try {
      expect([separate.port, separate.host]).toEqual([port, "127.0.0.1"]);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    } finally {
      await separate.close();
    }
  });

  it("serves the metrics on their own port only, to a scrape with the bearer token", async () => {
    const port = await findFreePort();
    const config = makeTestConfig({ METRICS_PORT: String(port), METRICS_TOKEN: "scrape-token-1234" });
    const separate = await startMetricsEndpoint(config, { source: sourceOf(), metrics: createGatewayMetrics() });
    const publicListener = await startService(separate);
    try {
      expect(separate.port).toBe(port);
      expect(separate.host).toBe("::"); // with a token, on every interface
      const url = `http://127.0.0.1:${port}/metrics`;
      const anonymous = await fetch(url);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect((await fetch(url, { headers: { authorization: "Bearer scrape-token-123" } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: "Basic scrape-token-1234" } })).status).toBe(401);
      const scraped = await scrape(url, { authorization: "Bearer scrape-token-1234" });
      expect(scraped.types.get("gateway_api_requests_total")).toBe("counter");
      expect((await fetch(`http://127.0.0.1:${port}/v1/currencies`)).status).toBe(404);
      // The service's own port no longer answers /metrics: it is an unknown path there.
      const onServicePort = await fetch(`${publicListener.url}/metrics`);
      expect(onServicePort.status).toBe(404);
      expect(onServicePort.headers.get("content-type")).toMatch(/^application\/json/);
    } finally {
      await publicListener.close();
      await separate.close();
    }
  });
});
