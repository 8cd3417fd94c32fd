/**
 * `npm run bench`: figures for this machine, each beside a baseline measured in the same run.
 * Not a test: it prints numbers and asserts nothing. Uses the local PostgreSQL server when one
 * answers at BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test), else the
 * embedded database.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runCli, signedPost, startService } from "@/e2e/fixtures/service";
import { runLoad, signedHeaders, type LoadResult } from "./load";
import { measureWebhookDeliveries } from "./webhooks";
import { BENCH_SESSION_SECRET, measureOverviewRender } from "./cabinet";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
/** BENCH_ONLY=api,webhooks runs only those parts (api, batches, payouts, cabinet, webhooks); all by default. */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((part) => part.trim())) : null;
const wants = (part: "api" | "batches" | "payouts" | "cabinet" | "webhooks") => !ONLY || ONLY.has(part);

async function prepareDatabase(): Promise<{ url?: string; label: string; drop(): Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return { label: "embedded database (PGlite)", drop: async () => undefined };
  }
  const name = `gateway_bench_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    label: "PostgreSQL server",
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

function formatRow(result: LoadResult): string {
  return `${result.label.padEnd(44)} ${result.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${result.p50Ms.toFixed(2).padStart(7)} ms   p99 ${result.p99Ms.toFixed(2).padStart(7)} ms   errors ${result.errors}`;
}

/** Submits a batch and polls it until it is completed; how long that took from submission. */
async function runBatch(baseUrl: string, key: { public_id: string; secret: string }, path: string, body: unknown) {
  const started = performance.now();
  const accepted = await signedPost(baseUrl, key, path, JSON.stringify(body));
  const batchId = accepted.body.result.batch_id as string;
  for (;;) {
    const info: { status: string; succeeded: number; failed: number } = (await signedPost(baseUrl, key, "/v1/batch/info", JSON.stringify({ batch_id: batchId, limit: 1 }))).body.result;
    if (info.status === "completed") return { info, seconds: (performance.now() - started) / 1000 };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let benchEmbedded: import("@/lib/db/embedded").EmbeddedDatabase | undefined;

async function startEmbeddedForBench(dataDir: string): Promise<string> {
  const { startEmbeddedDatabase } = await import("@/lib/db/embedded");
  benchEmbedded = await startEmbeddedDatabase(dataDir);
  return benchEmbedded.url;
}

async function stopEmbeddedForBench(): Promise<void> {
  await benchEmbedded?.close();
}

async function main(): Promise<void> {
  const database = await prepareDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-bench-"));
  // Sandbox chains serve every network, so invoices can be created on the PostgreSQL server too.
  const extraEnv: Record<string, string> = {
    GATEWAY_SANDBOX: "1",
    GATEWAY_RATE_LIMIT_RPS: "1000000",
    GATEWAY_RATE_LIMIT_BURST: "1000000",
    LOG_LEVEL: "warn",
    NEXTAUTH_SECRET: BENCH_SESSION_SECRET,
  };
  if (database.url) extraEnv.DATABASE_URL = database.url;
  const service = await startService({ dataDir, extraEnv });
  try {
    const key = runCli(service.env, ["merchant", "create", "--name", "Bench", "--email", "bench@example.com", "--password", "bench password"]).json as {
      merchant_id: string;
      public_id: string;
      secret: string;
    };
    runCli(service.env, ["merchant", "create", "--name", "Quiet", "--email", "quiet@example.com", "--password", "quiet password"]);
    console.log(`Machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; database: ${database.label}`);
    console.log(`Load: ${CONCURRENCY} concurrent keep-alive clients, ${SECONDS} s per figure after ${WARMUP_SECONDS} s warm-up\n`);

    const bare = await runLoad(
      { label: "bare route (GET /ping, no work)", method: "GET", url: `${service.baseUrl}/ping`, prepare: () => ({ headers: {} }) },
      { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS },
    );
    const signedPath = "/v1/api-allowlist/list";
    const signedRead = await runLoad(
      {
        label: `signed read (POST ${signedPath})`,
        method: "POST",
        url: service.baseUrl + signedPath,
        prepare: () => ({ headers: signedHeaders(key, signedPath, "{}"), body: "{}" }),
      },
      { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS },
    );
    const invoiceBody = JSON.stringify({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron" });
    const createInvoices = await runLoad(
      {
        label: "create invoice (POST /v1/payment, USDT on tron)",
        method: "POST",
        url: `${service.baseUrl}/v1/payment`,
        prepare: () => ({ headers: signedHeaders(key, "/v1/payment", invoiceBody), body: invoiceBody }),
      },
      { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS },
    );
    console.log(formatRow(bare));
    console.log(formatRow(signedRead));
    console.log(formatRow(createInvoices));
    const ratio = (result: LoadResult) =>
      `${(result.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}× the bare route's throughput, p50 ${(result.p50Ms / bare.p50Ms).toFixed(2)}×, p99 ${(result.p99Ms / bare.p99Ms).toFixed(2)}× its latency`;
    console.log(`\nkernel overhead: signed read runs at ${ratio(signedRead)}`);
    console.log(`invoice creation runs at ${ratio(createInvoices)}`);

    const batchSize = Number(process.env.BENCH_BATCH_SIZE ?? 5000);
    if (wants("batches")) {
      const payments = Array.from({ length: batchSize }, (_, i) => ({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: `bench-${i}` }));
      const { info, seconds: batchSeconds } = await runBatch(service.baseUrl, key, "/v1/payment/batch", { payments });
      console.log(
        `\npayment batch of ${batchSize}: completed in ${batchSeconds.toFixed(1)} s (${(batchSize / batchSeconds).toFixed(0)} invoices/s; ` +
          `${info.succeeded} succeeded, ${info.failed} failed) — ${(batchSize / batchSeconds / createInvoices.requestsPerSecond).toFixed(2)}× the rate of single creates`,
      );
    }

    if (wants("payouts")) {
      // Payouts: one merchant funded by a paid sandbox invoice; every payout takes its balance's
      // row lock, so this is the contended case.
      const funding = (await signedPost(service.baseUrl, key, "/v1/payment", JSON.stringify({ amount: "900000.00", currency: "USD", to_currency: "USDT", network: "tron" }))).body.result;
      await signedPost(service.baseUrl, key, "/v1/sandbox/deposit", JSON.stringify({ network: "tron", currency: "USDT", address: funding.address, amount: funding.payer_amount }));
      await signedPost(service.baseUrl, key, "/v1/sandbox/mine", JSON.stringify({ network: "tron", blocks: 25 }));
      let payoutCounter = 0;
      const createPayouts = await runLoad(
        {
          label: "create payout (POST /v1/payout, USDT on tron)",
          method: "POST",
          url: `${service.baseUrl}/v1/payout`,
          prepare: () => {
            const body = JSON.stringify({ amount: "2", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: `bench-payout-${payoutCounter++}`, is_subtract: true });
            return { headers: signedHeaders(key, "/v1/payout", body), body };
          },
        },
        { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS },
      );
      console.log(`\n${formatRow(createPayouts)}`);
      console.log(`payout creation runs at ${ratio(createPayouts)}; ${(createPayouts.requestsPerSecond / createInvoices.requestsPerSecond).toFixed(2)}× invoice creation`);

      const payouts = Array.from({ length: batchSize }, (_, i) => ({ amount: "2", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: `bench-batch-payout-${i}`, is_subtract: true }));
      const { info: payoutInfo, seconds: payoutBatchSeconds } = await runBatch(service.baseUrl, key, "/v1/payout/batch", { payouts });
      console.log(
        `payout batch of ${batchSize} (sandbox): completed in ${payoutBatchSeconds.toFixed(1)} s (${(batchSize / payoutBatchSeconds).toFixed(0)} payouts/s; ` +
          `${payoutInfo.succeeded} succeeded, ${payoutInfo.failed} failed) — ${(batchSize / payoutBatchSeconds / createPayouts.requestsPerSecond).toFixed(2)}× the rate of single payouts`,
      );
    }

    if (wants("cabinet")) {
      const invoiceCount = Number(process.env.BENCH_OVERVIEW_INVOICES ?? 100_000);
      const { findRunningEmbeddedDatabase } = await import("@/lib/db/embedded");
      const overview = await measureOverviewRender(
        service.baseUrl,
        database.url ?? findRunningEmbeddedDatabase(dataDir)!,
        { busy: { merchantId: key.merchant_id, email: "bench@example.com" }, quiet: { email: "quiet@example.com" } },
        invoiceCount,
      );
      console.log("\nCabinet overview page, server render (GET /cabinet?period=90d, one request at a time):");
      for (const figure of [overview.quiet, overview.busy]) {
        console.log(`${figure.label.padEnd(44)} p50 ${figure.p50Ms.toFixed(1).padStart(7)} ms   p99 ${figure.p99Ms.toFixed(1).padStart(7)} ms   (${figure.samples} renders)`);
      }
      console.log(`with ${invoiceCount.toLocaleString("en")} invoices the overview takes ${(overview.busy.p50Ms / overview.quiet.p50Ms).toFixed(2)}× the quiet store's p50 (${(overview.busy.p50Ms / bare.p50Ms).toFixed(1)}× the bare route's p50 under load)`);
    }
  } finally {
    await service.stop();
  }
  try {
    if (!wants("webhooks")) return;
    // The dispatcher runs in this process against the same database, with the service stopped.
    const databaseUrl = database.url ?? (await startEmbeddedForBench(dataDir));
    const shape = { merchants: 20, perMerchant: 100, timeoutMs: 2000 };
    // A small unreported pass first, so neither figure pays for warming up.
    await measureWebhookDeliveries(databaseUrl, { merchants: 5, perMerchant: 40, timeoutMs: 2000, label: "warm-up", timeoutShare: 0 });
    const instant = await measureWebhookDeliveries(databaseUrl, { ...shape, label: "all receivers answer at once", timeoutShare: 0 });
    const withTimeouts = await measureWebhookDeliveries(databaseUrl, { ...shape, label: "10 % of receivers time out (2 s)", timeoutShare: 0.1 });
    console.log(`\nWebhook delivery (built-in dispatcher, ${shape.merchants} merchants × ${shape.perMerchant} events, local receivers):`);
    for (const figure of [instant, withTimeouts]) {
      console.log(`${figure.label.padEnd(44)} ${figure.perSecond.toFixed(0).padStart(8)} deliveries/s   (${figure.deliveries} in ${figure.seconds.toFixed(2)} s)`);
    }
    console.log(`with 10 % timing out, the answering receivers get ${(withTimeouts.perSecond / instant.perSecond).toFixed(2)}× the all-healthy rate`);
  } finally {
    await stopEmbeddedForBench();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
