/**
 * `npm run bench`: figures for this machine, each beside a baseline measured in the same run.
 * Not a test: it prints numbers and asserts nothing. Uses the local PostgreSQL server when one
 * answers at BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test), else the
 * embedded database. Ends with the performance issue's goals, each with its figure from this run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isPostgresReachable, scratchDatabase } from "@/lib/testing/scratch-database";
import { runCli, signedPost, startService } from "@/e2e/testing/service";
import { createInvoiceTarget, runLoad, signedHeaders, signedReadTarget, type LoadResult } from "./load";
import { measureWebhookDeliveries } from "./webhooks";
import { BENCH_SESSION_SECRET, measureOverviewRender } from "./cabinet";
import { printGoals, type BenchResults } from "./goals";
import { findProcessGroupLeaders, findServiceRootPid, measureIdleRss, measureMemoryUnderLoad, MEMORY_GROWTH_NOISE } from "./memory";
import { measureHostedPage, type PageFigure } from "./page";
import { measureSingleInsertRate } from "./pg";
import { measureScaleOut, type ScaleFigure } from "./scale";
import { measureQrRendering, QR_PAYLOADS, type QrFigures } from "./qr";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
/** Clients of the issue's reference insert rate (pgbench, 16 clients). */
const REFERENCE_INSERT_CLIENTS = 16;
/** Sustained mixed load of the memory part, in seconds. */
const MEMORY_SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 600);
/** The scale part measures 1, 2 … this many web processes. */
const SCALE_PROCESSES = Number(process.env.BENCH_SCALE_PROCESSES ?? 3);
/** The CPU each web process gets in the scale part's capped series, in cores. */
const SCALE_CORES_PER_PROCESS = Number(process.env.BENCH_SCALE_CORES ?? 0.25);
/** Fresh page loads per figure of the page part (the LCP is their median). */
const PAGE_LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 5);
type BenchPart = "qr" | "api" | "pg" | "batches" | "payouts" | "cabinet" | "page" | "memory" | "webhooks" | "scale";
/** BENCH_ONLY=api,webhooks runs only those parts (see BenchPart); all by default. */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((part) => part.trim())) : null;
const wants = (part: BenchPart) => !ONLY || ONLY.has(part);
/** Parts measured in this process alone, without the service: BENCH_ONLY=qr starts nothing. */
const IN_PROCESS_PARTS: BenchPart[] = ["qr"];

async function prepareDatabase(): Promise<{ url?: string; serverUrl?: string; label: string; drop(): Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  if (!(await isPostgresReachable(serverUrl))) {
    return { label: "embedded database (PGlite)", drop: async () => undefined };
  }
  const database = scratchDatabase(serverUrl, `gateway_bench_${process.pid}`);
  await database.create();
  return { url: database.url, serverUrl, label: "PostgreSQL server", drop: database.drop };
}

/** Wide enough for the longest label, so the figures line up in one column. */
const LABEL_WIDTH = 50;

/** " (503: 12, network: 1)" when requests failed. */
function formatErrorStatuses(result: LoadResult): string {
  const entries = Object.entries(result.errorsByStatus ?? {});
  return entries.length ? ` (${entries.map(([status, count]) => `${status}: ${count}`).join(", ")})` : "";
}

function formatRow(result: LoadResult, unit = "req/s"): string {
  return `${result.label.padEnd(LABEL_WIDTH)} ${result.requestsPerSecond.toFixed(0).padStart(8)} ${unit}   p50 ${result.p50Ms.toFixed(2).padStart(7)} ms   p99 ${result.p99Ms.toFixed(2).padStart(7)} ms   errors ${result.errors}${formatErrorStatuses(result)}`;
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

function formatPageRow(figure: PageFigure): string {
  return `${figure.label.padEnd(LABEL_WIDTH)} ${String(figure.scripts).padStart(3)} scripts ${(figure.scriptGzipBytes / 1000).toFixed(1).padStart(7)} kB JS gz (${(figure.scriptBytes / 1000).toFixed(1).padStart(7)} kB raw)   LCP p50 ${figure.lcpP50Ms.toFixed(0).padStart(5)} ms`;
}

function formatRss(label: string, megabytes: number, note = ""): string {
  return `${label.padEnd(LABEL_WIDTH)} ${megabytes.toFixed(0).padStart(8)} MB${note ? `   ${note}` : ""}`;
}

/** Marks the processes this run starts, so an interrupted run can stop them. */
const BENCH_RUN_VARIABLE = "BENCH_RUN_PID";

/**
 * Ctrl-C reaches only the bench's own process group, and the services it started run detached in
 * groups of their own: without this they would go on running (and holding their ports) after it.
 * The scratch databases stay behind (`gateway_bench_<pid>`).
 */
function stopStartedProcessesOnSignal(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      for (const leader of findProcessGroupLeaders(`${BENCH_RUN_VARIABLE}=${process.pid}`)) {
        try {
          process.kill(-leader, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      process.exit(130);
    });
  }
}

function printQrFigures(figures: QrFigures): void {
  const payloads = QR_PAYLOADS.map((payload) => `${payload.label} (${payload.text.length} B)`.padStart(24)).join("");
  console.log(`\nQR code rendering in this process, text → data: URI (SVG), one render at a time, renders/s:`);
  console.log(`${"".padEnd(LABEL_WIDTH)}${payloads}`);
  for (const figure of [figures.baseline, ...figures.encoders]) {
    console.log(`${figure.label.padEnd(LABEL_WIDTH)}${figure.perSecond.map((perSecond) => perSecond.toFixed(0).padStart(24)).join("")}`);
  }
  for (const figure of figures.encoders) {
    // Time per render against the service's, the geometric mean over the payloads.
    const ratios = figure.perSecond.map((perSecond, index) => figures.baseline.perSecond[index] / perSecond);
    const mean = Math.exp(ratios.reduce((sum, ratio) => sum + Math.log(ratio), 0) / ratios.length);
    console.log(`${figure.label}: ${mean.toFixed(2)}× the time of renderQrCode per render (${ratios.map((ratio) => `${ratio.toFixed(2)}×`).join(", ")})`);
  }
  console.log('(the hand-written encoder these replaced, and why: docs/benchmarks.md, "QR codes")');
}

async function main(): Promise<void> {
  stopStartedProcessesOnSignal();
  if (wants("qr")) printQrFigures(await measureQrRendering({ seconds: Number(process.env.BENCH_QR_SECONDS ?? 12) }));
  if (ONLY && [...ONLY].every((part) => IN_PROCESS_PARTS.includes(part as BenchPart))) return;
  const database = await prepareDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-bench-"));
  const results: BenchResults = { concurrency: CONCURRENCY };
  // Sandbox chains serve every network, so invoices can be created on the PostgreSQL server too.
  const extraEnv: Record<string, string> = {
    [BENCH_RUN_VARIABLE]: String(process.pid),
    GATEWAY_SANDBOX: "1",
    GATEWAY_RATE_LIMIT_RPS: "1000000",
    GATEWAY_RATE_LIMIT_BURST: "1000000",
    LOG_LEVEL: "warn",
    NEXTAUTH_SECRET: BENCH_SESSION_SECRET,
  };
  const serviceEnv = { ...extraEnv, ...(database.url ? { DATABASE_URL: database.url } : {}) };
  const service = await startService({ dataDir, extraEnv: serviceEnv });
  try {
    const key = runCli(service.env, ["merchant", "create", "--name", "Bench", "--email", "bench@example.com", "--password", "bench password"]).json as {
      merchant_id: string;
      public_id: string;
      secret: string;
    };
    runCli(service.env, ["merchant", "create", "--name", "Quiet", "--email", "quiet@example.com", "--password", "quiet password"]);
    console.log(`Machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; database: ${database.label}`);
    console.log(`Load: ${CONCURRENCY} concurrent keep-alive clients, ${SECONDS} s per figure after ${WARMUP_SECONDS} s warm-up\n`);

    // Measured before any load: what the service holds once started.
    const serviceRootPid = wants("memory") ? findServiceRootPid(dataDir) : undefined;
    if (wants("memory") && serviceRootPid === undefined) console.log("memory: the npm start process was not found under /proc; the memory part will not run\n");
    if (serviceRootPid !== undefined) results.idleRss = await measureIdleRss(serviceRootPid);

    const bare = await runLoad(
      { label: "bare route (GET /ping, no work)", method: "GET", url: `${service.baseUrl}/ping`, prepare: () => ({ headers: {} }) },
      { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS },
    );
    const signedRead = await runLoad(signedReadTarget(service.baseUrl, key), { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS });
    const createInvoices = await runLoad(createInvoiceTarget(service.baseUrl, key), { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS });
    Object.assign(results, { bare, signedRead, createInvoices });
    console.log(formatRow(bare));
    console.log(formatRow(signedRead));
    console.log(formatRow(createInvoices));
    const ratio = (result: LoadResult) =>
      `${(result.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}× the bare route's throughput, p50 ${(result.p50Ms / bare.p50Ms).toFixed(2)}×, p99 ${(result.p99Ms / bare.p99Ms).toFixed(2)}× its latency`;
    console.log(`\nkernel overhead: signed read runs at ${ratio(signedRead)}`);
    console.log(`invoice creation runs at ${ratio(createInvoices)}`);

    if (wants("pg")) {
      // The same server (or the running service's embedded database) the service writes to.
      const { findRunningEmbeddedDatabase } = await import("@/lib/db/embedded");
      // At the issue's reference (pgbench with 16 clients) and at the HTTP load's concurrency: the
      // rate counted is the higher, PostgreSQL's ceiling whichever way group commit falls that day.
      const insertUrl = database.url ?? (await findRunningEmbeddedDatabase(dataDir))!;
      const rates = [];
      for (const concurrency of [...new Set([REFERENCE_INSERT_CLIENTS, CONCURRENCY])]) {
        const rate = await measureSingleInsertRate(insertUrl, { concurrency, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS });
        rates.push(rate);
        console.log(`${rates.length === 1 ? "\n" : ""}${formatRow(rate, "inserts/s")}`);
      }
      const singleInsert = rates.reduce((best, rate) => (rate.requestsPerSecond > best.requestsPerSecond ? rate : best));
      results.singleInsert = singleInsert;
      console.log(`(${singleInsert.settings}; connections of the node pg driver, one logged row per commit; the higher rate counts)`);
      console.log(
        `invoice creation runs at ${(createInvoices.requestsPerSecond / singleInsert.requestsPerSecond).toFixed(2)}× PostgreSQL's single-insert rate (goal ≥ 0.3×) ` +
          `and ${(createInvoices.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}× the bare route's throughput (goal ≥ 0.5×)`,
      );
    }

    if (wants("page")) {
      const invoice = (await signedPost(service.baseUrl, key, "/v1/payment", JSON.stringify({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron" }))).body.result;
      // The invoice's url names PUBLIC_BASE_URL; the page is loaded from this server.
      const page = await measureHostedPage(service.baseUrl, new URL(invoice.url as string).pathname, PAGE_LOADS);
      results.page = page;
      console.log(`\nHosted payment page in headless Chromium (a fresh context per load, LCP median of ${PAGE_LOADS} loads, loopback, no throttling):`);
      for (const figure of [page.ping, page.home, page.payment]) console.log(formatPageRow(figure));
      console.log(
        `hosted payment page: ${(page.payment.scriptGzipBytes / 1000).toFixed(1)} kB JS gz (goal ≤ 100 kB; ${(page.payment.scriptGzipBytes / page.home.scriptGzipBytes).toFixed(2)}× the service page's), ` +
          `LCP ${page.payment.lcpP50Ms.toFixed(0)} ms (goal ≤ 1000 ms; ${(page.payment.lcpP50Ms / page.ping.lcpP50Ms).toFixed(1)}× /ping's); scripts sent with content-encoding: ${page.payment.serverEncoding}`,
      );
    }

    const batchSize = Number(process.env.BENCH_BATCH_SIZE ?? 5000);
    if (wants("batches")) {
      const payments = Array.from({ length: batchSize }, (_, i) => ({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: `bench-${i}` }));
      const { info, seconds: batchSeconds } = await runBatch(service.baseUrl, key, "/v1/payment/batch", { payments });
      results.paymentBatch = { size: batchSize, seconds: batchSeconds };
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
      results.payoutBatch = { size: batchSize, seconds: payoutBatchSeconds };
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
        database.url ?? (await findRunningEmbeddedDatabase(dataDir))!,
        { busy: { merchantId: key.merchant_id, email: "bench@example.com" }, quiet: { email: "quiet@example.com" } },
        invoiceCount,
      );
      console.log("\nCabinet overview page, server render (GET /cabinet?period=90d, one request at a time):");
      for (const figure of [overview.quiet, overview.busy]) {
        console.log(`${figure.label.padEnd(LABEL_WIDTH)} p50 ${figure.p50Ms.toFixed(1).padStart(7)} ms   p99 ${figure.p99Ms.toFixed(1).padStart(7)} ms   (${figure.samples} renders)`);
      }
      console.log(`with ${invoiceCount.toLocaleString("en")} invoices the overview takes ${(overview.busy.p50Ms / overview.quiet.p50Ms).toFixed(2)}× the quiet store's p50 (${(overview.busy.p50Ms / bare.p50Ms).toFixed(1)}× the bare route's p50 under load)`);
    }
    // The soak last of the service's parts: the 10-minute load leaves the database some 400 000
    // invoices heavier and autovacuum at work, which the figures above would otherwise pay for.
    if (serviceRootPid !== undefined && results.idleRss) {
      const memory = await measureMemoryUnderLoad(serviceRootPid, service.baseUrl, key, { concurrency: CONCURRENCY, seconds: MEMORY_SECONDS });
      results.memory = memory;
      const [reads, creates] = memory.loads;
      console.log(`\nMemory: RSS of the npm start process tree, sampled every 10 s:`);
      const idleBreakdown = results.idleRss.processes.map((entry) => `${entry.name} ${entry.mb.toFixed(0)}`).join(", ");
      console.log(formatRss("idle (45 s after ready)", results.idleRss.totalMb, `(${idleBreakdown} MB)`));
      console.log(formatRss("first minute of load (median)", memory.firstMinuteMb));
      if (memory.secondMinuteMb !== undefined) console.log(formatRss("second minute of load (median)", memory.secondMinuteMb));
      console.log(formatRss("last minute of load (median)", memory.lastMinuteMb, `(server process ${memory.samples[memory.samples.length - 1].serverMb.toFixed(0)} MB at the end)`));
      console.log(formatRss("30 s after the load (median)", memory.afterLoadMb));
      console.log(
        `mixed load for ${memory.seconds.toFixed(0)} s: ${reads.requests} signed reads (${reads.requestsPerSecond.toFixed(0)} req/s, ${reads.errors} errors) ` +
          `and ${creates.requests} invoices (${creates.requestsPerSecond.toFixed(0)} req/s, ${creates.errors} errors)`,
      );
      const slope = `slope ${memory.slopeMbPerMinute >= 0 ? "+" : ""}${memory.slopeMbPerMinute.toFixed(1)} MB/min`;
      if (memory.growth === undefined) {
        console.log(`growth: ${slope} over the whole load; too short to judge growth (needs ≥ 3 min: the last minute against the second)`);
      } else {
        const verdict = memory.growth > MEMORY_GROWTH_NOISE ? `grows (more than +${MEMORY_GROWTH_NOISE * 100} %)` : `no growth beyond noise (≤ +${MEMORY_GROWTH_NOISE * 100} %)`;
        console.log(`growth: last minute ${memory.growth >= 0 ? "+" : ""}${(memory.growth * 100).toFixed(1)} % over the second minute, ${slope} after the first minute → ${verdict}`);
      }
    }
  } finally {
    await service.stop();
  }
  try {
    if (wants("webhooks")) {
      // The dispatcher runs in this process against the same database, with the service stopped.
      const databaseUrl = database.url ?? (await startEmbeddedForBench(dataDir));
      const shape = { merchants: 20, perMerchant: 100, timeoutMs: 2000 };
      // A small unreported pass first, so neither figure pays for warming up.
      await measureWebhookDeliveries(databaseUrl, { merchants: 5, perMerchant: 40, timeoutMs: 2000, label: "warm-up", timeoutShare: 0 });
      const instant = await measureWebhookDeliveries(databaseUrl, { ...shape, label: "all receivers answer at once", timeoutShare: 0 });
      const withTimeouts = await measureWebhookDeliveries(databaseUrl, { ...shape, label: "10 % of receivers time out (2 s)", timeoutShare: 0.1 });
      results.webhooks = { instant, withTimeouts };
      console.log(`\nWebhook delivery (built-in dispatcher, ${shape.merchants} merchants × ${shape.perMerchant} events, local receivers):`);
      for (const figure of [instant, withTimeouts]) {
        console.log(`${figure.label.padEnd(LABEL_WIDTH)} ${figure.perSecond.toFixed(0).padStart(8)} deliveries/s   (${figure.deliveries} in ${figure.seconds.toFixed(2)} s)`);
      }
      console.log(`with 10 % timing out, the answering receivers get ${(withTimeouts.perSecond / instant.perSecond).toFixed(2)}× the all-healthy rate`);
    }

    if (wants("scale")) {
      if (!database.serverUrl) {
        console.log("\nScale-out: not run (several web processes need a PostgreSQL server; the embedded database belongs to one process)");
      } else {
        console.log(`\nScale-out: web processes (GATEWAY_WORKER=off) and one npm run worker on one PostgreSQL database; ${CONCURRENCY} clients spread over the web processes round-robin:`);
        const firsts = new Map<number | undefined, ScaleFigure>();
        const printScaleFigure = (figure: ScaleFigure, cappedAt?: number) => {
          if (!firsts.has(cappedAt)) firsts.set(cappedAt, figure);
          const one = firsts.get(cappedAt)!;
          console.log(formatRow(figure.signedRead));
          console.log(formatRow(figure.createInvoices));
          if (figure.processes > 1) {
            console.log(
              `${figure.processes} web processes${cappedAt ? `, ${cappedAt} core each` : ""}: signed reads at ${(figure.signedRead.requestsPerSecond / one.signedRead.requestsPerSecond).toFixed(2)}× one process's throughput, ` +
                `invoice creation at ${(figure.createInvoices.requestsPerSecond / one.createInvoices.requestsPerSecond).toFixed(2)}×`,
            );
          }
        };
        results.scale = await measureScaleOut(database.serverUrl, extraEnv, {
          maxProcesses: SCALE_PROCESSES,
          coresPerProcess: SCALE_CORES_PER_PROCESS,
          concurrency: CONCURRENCY,
          seconds: SECONDS,
          warmupSeconds: WARMUP_SECONDS,
          onFigure: printScaleFigure,
        });
        if ("unavailable" in results.scale.capped) console.log(`each web process capped: not run (${results.scale.capped.unavailable})`);
        console.log(`(${os.cpus().length} cores shared by every web process, the worker, PostgreSQL and the load generator; capped, each web process stands for one on a machine of its own)`);
      }
    }
  } finally {
    await stopEmbeddedForBench();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printGoals(results);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
