import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { ensurePrismaClient } from "@/lib/runtime/prepare";
import { verifyWebhook } from "@/lib/webhooks/signing";
import { runCli, signedPost, startService, type RunningService } from "../testing/service";
import { startWorkerProcess, type RunningWorker } from "../testing/worker-process";
import { e2eDatabase } from "../testing/postgres-database";

// The scaled-out topology of docs/deployment.md: two web processes (GATEWAY_WORKER=off) and
// two `npm run worker` processes on one PostgreSQL database, started together on an empty one.

const database = e2eDatabase("scale");
const query = database.query;
const sharedEnv = {
  DATABASE_URL: database.url,
  // Every process must seal and open secrets with the same key.
  GATEWAY_MASTER_KEY: randomBytes(32).toString("hex"),
  // With DATABASE_URL the sandbox is off unless asked for.
  GATEWAY_SANDBOX: "1",
  GATEWAY_ALLOW_LOOPBACK_URLS: "1",
};

interface Invoice {
  uuid: string;
  address: string;
  payer_amount: string;
  payer_currency: string;
  network: string;
  required_confirmations: number;
}

/** USDT on Tron has 6 decimals. */
function toMinor(text: string): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(6, "0"));
}

async function deliveredWebhookCount(worker: RunningWorker): Promise<number> {
  const text = await (await fetch(`${worker.baseUrl}/metrics`)).text();
  const match = /^gateway_webhook_attempts_total\{outcome="delivered"\} (\d+)/m.exec(text);
  return match ? Number(match[1]) : 0;
}

describe("several web processes and workers on one PostgreSQL database", () => {
  let webA: RunningService | undefined;
  let webB: RunningService | undefined;
  let workers: RunningWorker[] = [];
  let receiver: WebhookReceiver | undefined;

  // Starting includes the first `next build` when the sources changed since the last one.
  beforeAll(async () => {
    await database.create();
    // Generated once here, so the processes started together do not all generate it at once.
    ensurePrismaClient();
    receiver = await startWebhookReceiver(() => 200);
    const webEnv = { ...sharedEnv, GATEWAY_WORKER: "off" };
    // Both workers and the first web process race for the migrations on the empty database; the
    // second web process starts after the first has (if needed) built the application.
    const [first, second, started] = await Promise.all([
      startWorkerProcess({ extraEnv: sharedEnv }),
      startWorkerProcess({ extraEnv: sharedEnv }),
      startService({ extraEnv: webEnv, timeoutMs: 840_000 }),
    ]);
    workers = [first, second];
    webA = started;
    webB = await startService({ extraEnv: webEnv });
  }, 900_000);

  afterAll(async () => {
    await Promise.all([webA?.stop(), webB?.stop(), ...workers.map((worker) => worker.stop())]);
    await receiver?.close();
    await database.drop();
  });

  it("migrates once when they start together, credits each invoice once, delivers each event once, and survives a worker's SIGTERM", { timeout: 180_000 }, async () => {
    if (!webA || !webB) throw new Error("the processes did not start");
    const [workerToStop, survivingWorker] = workers;

    const migrationDirs = fs.readdirSync(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const migrations = await query<{ migration_name: string; finished_at: Date | null }>(`SELECT migration_name, finished_at FROM "_prisma_migrations"`);
    expect(migrations).toHaveLength(migrationDirs.length);
    expect(new Set(migrations.map((row) => row.migration_name)).size).toBe(migrationDirs.length);
    expect(migrations.every((row) => row.finished_at !== null)).toBe(true);
    for (const worker of workers) {
      const health = await fetch(`${worker.baseUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true, role: "worker", sandbox: true });
    }
    // A worker serves no API.
    expect((await fetch(`${workerToStop.baseUrl}/v1/currencies`)).status).toBe(404);

    const merchant = runCli(webA.env, ["merchant", "create", "--name", "Scale Shop"]);
    expect(merchant.status).toBe(0);
    const key = merchant.json as { merchant_id: string; public_id: string; secret: string };
    // No platform fee: the balance must then be exactly the sum of what was paid, once each.
    expect(runCli(webA.env, ["merchant", "set-fee", "--merchant", key.merchant_id, "--percent", "0", "--fixed-usd", "0"]).status).toBe(0);
    const webs = [webA, webB];
    const registered = await signedPost(webB.baseUrl, key, "/v1/webhooks", JSON.stringify({ url: receiver!.url }));
    expect(registered.status).toBe(201);

    const invoices: Invoice[] = [];
    for (let index = 0; index < 6; index++) {
      const body = { amount: `${10 + index}.00`, currency: "USD", to_currency: "USDT", network: "tron", order_id: `scale-${index}` };
      const created = await signedPost(webs[index % 2].baseUrl, key, "/v1/payment", JSON.stringify(body));
      expect(created.status).toBe(200);
      invoices.push(created.body.result);
    }
    const deposit = async (index: number) => {
      const invoice = invoices[index];
      const body = { network: invoice.network, currency: invoice.payer_currency, address: invoice.address, amount: invoice.payer_amount };
      // Paid through the other web process than the one that created it.
      expect((await signedPost(webs[(index + 1) % 2].baseUrl, key, "/v1/sandbox/deposit", JSON.stringify(body))).status).toBe(200);
    };
    const mine = async (web: RunningService) => {
      const blocks = Math.max(...invoices.map((invoice) => invoice.required_confirmations));
      expect((await signedPost(web.baseUrl, key, "/v1/sandbox/mine", JSON.stringify({ network: "tron", blocks }))).status).toBe(200);
    };
    const deliveries = () =>
      query<{ id: string; status: string; attempts: number; object_id: string; body: string }>(
        `SELECT id, status, attempts, object_id, body FROM webhook_deliveries WHERE merchant_id = $1`,
        [key.merchant_id],
      );
    /** Waits until every given invoice's paid event is delivered and nothing is left pending. */
    const waitForPaidEvents = async (indexes: number[]) => {
      await expect
        .poll(
          async () => {
            const rows = await deliveries();
            const paidDelivered = indexes.filter((index) =>
              rows.some((row) => row.object_id === invoices[index].uuid && row.status === "delivered" && JSON.parse(row.body).status === "paid"),
            );
            return { paid: paidDelivered.length, pending: rows.filter((row) => row.status === "pending").length };
          },
          { timeout: 30_000, interval: 250 },
        )
        .toEqual({ paid: indexes.length, pending: 0 });
    };

    // Both workers alive: the first three invoices, paid and confirmed through both web processes.
    await Promise.all([0, 1, 2].map(deposit));
    await Promise.all([mine(webA), mine(webB)]);
    await waitForPaidEvents([0, 1, 2]);

    // SIGTERM one worker while the next payments are being confirmed and their events recorded.
    await Promise.all([3, 4].map(deposit));
    const [, hasStoppedInTime] = await Promise.all([mine(webB), workerToStop.stop()]);
    expect(hasStoppedInTime).toBe(true);
    expect(workerToStop.output()).toMatch(/Stopping \(SIGTERM\)[\s\S]*Gateway worker stopped/);
    await waitForPaidEvents([0, 1, 2, 3, 4]);

    // The remaining worker alone finishes what comes after.
    const deliveredBefore = await deliveredWebhookCount(survivingWorker);
    await deposit(5);
    await mine(webA);
    await waitForPaidEvents([0, 1, 2, 3, 4, 5]);
    const lastInvoiceDeliveries = (await deliveries()).filter((row) => row.object_id === invoices[5].uuid);
    expect(await deliveredWebhookCount(survivingWorker)).toBeGreaterThanOrEqual(deliveredBefore + lastInvoiceDeliveries.length);
    expect(survivingWorker.isAlive()).toBe(true);
    expect((await fetch(`${survivingWorker.baseUrl}/healthz`)).status).toBe(200);

    // Credited exactly once each: one transfer, one credit, one credit journal per invoice.
    for (const invoice of invoices) {
      const info = await signedPost(webA.baseUrl, key, "/v1/payment/info", JSON.stringify({ uuid: invoice.uuid }));
      expect(info.body.result).toMatchObject({ payment_status: "paid", amount_paid: invoice.payer_amount });
    }
    const credits = await query<{ invoice_id: string; credits: number; journals: string }>(
      `SELECT t.invoice_id, t.credits,
              (SELECT count(*) FROM ledger_journals j WHERE j.reference LIKE 'transfer:' || t.id || ':credit:%') AS journals
         FROM chain_transfers t WHERE t.invoice_id = ANY($1::uuid[])`,
      [invoices.map((invoice) => invoice.uuid)],
    );
    expect(credits).toHaveLength(invoices.length);
    expect(credits.every((row) => row.credits === 1 && Number(row.journals) === 1)).toBe(true);
    const balance = await signedPost(webB.baseUrl, key, "/v1/balance", JSON.stringify({ currency: "USDT", network: "tron" }));
    expect(balance.status).toBe(200);
    const [usdt] = balance.body.result.balances;
    const paidTotal = invoices.reduce((sum, invoice) => sum + toMinor(invoice.payer_amount), 0n);
    expect(toMinor(usdt.available) + toMinor(usdt.maturing)).toBe(paidTotal);
    const audit = runCli(webA.env, ["ledger", "audit"]);
    expect(audit.json.clean).toBe(true);

    // Delivered exactly once per delivery: each X-Webhook-Id received once, signed, and every delivery row delivered on its first attempt.
    const rows = await deliveries();
    expect(rows.every((row) => row.status === "delivered" && row.attempts === 1)).toBe(true);
    const receivedIds = receiver!.received.map((request) => request.headers["x-webhook-id"]);
    expect(receivedIds).toHaveLength(new Set(receivedIds).size);
    expect([...receivedIds].sort()).toEqual(rows.map((row) => row.id).sort());
    for (const request of receiver!.received) {
      expect(verifyWebhook({ rawBody: request.rawBody, headers: request.headers as Record<string, string>, secrets: [registered.body.secret] })).toBe(true);
    }
    const paidEvents = receiver!.received.map((request) => JSON.parse(request.rawBody)).filter((body) => body.status === "paid");
    expect(paidEvents.map((body) => body.uuid).sort()).toEqual(invoices.map((invoice) => invoice.uuid).sort());

    expect(webA.output()).not.toMatch(/"level":"error"/);
    expect(webB.output()).not.toMatch(/"level":"error"/);
    expect(survivingWorker.output()).not.toMatch(/"level":"error"/);
  });

  it("a key kept in memory by both web processes stops working in both once it is revoked or fenced off by the allow-list", { timeout: 60_000 }, async () => {
    if (!webA || !webB) throw new Error("the processes did not start");
    const webs = [webA, webB];
    const call = (web: RunningService, key: { public_id: string; secret: string }) => signedPost(web.baseUrl, key, "/v1/api-allowlist/list", "{}");
    /** Every web process's answer code for this key until they all refuse with `code` (change notices take milliseconds). */
    const expectRefusedEverywhere = async (key: { public_id: string; secret: string }, code: string) =>
      expect
        .poll(async () => Promise.all(webs.map(async (web) => (await call(web, key)).body.error?.code ?? "ok")), { timeout: 2_000, interval: 20 })
        .toEqual([code, code]);

    const merchant = runCli(webA.env, ["merchant", "create", "--name", "Key Cache Shop"]).json as { merchant_id: string; public_id: string; secret: string };
    const second = runCli(webA.env, ["key", "create", "--merchant", merchant.merchant_id, "--kind", "unified"]).json as { public_id: string; secret: string };
    // Each process has verified both keys at least twice: they are kept.
    for (let round = 0; round < 2; round++) {
      for (const web of webs) for (const key of [merchant, second]) expect((await call(web, key)).status).toBe(200);
    }

    // Revoked by another process (the CLI): refused by both web processes.
    expect(runCli(webA.env, ["key", "revoke", "--public-id", second.public_id]).json).toEqual({ revoked: true });
    await expectRefusedEverywhere(second, "merchant.unknown_key");

    // The allow-list changed through web A fences the key off in web B too (127.0.0.1 is not in 192.0.2.0/24).
    expect((await signedPost(webA.baseUrl, merchant, "/v1/api-allowlist/add", JSON.stringify({ cidr: "192.0.2.0/24" }))).status).toBe(200);
    expect((await signedPost(webA.baseUrl, merchant, "/v1/api-allowlist/enable", JSON.stringify({ enabled: true }))).status).toBe(200);
    await expectRefusedEverywhere(merchant, "auth.ip_not_allowed");
    // And lifting it from the database directly (an operator's SQL) lets it in again everywhere.
    await query(`UPDATE merchants SET allowlist_enabled = false WHERE id = $1`, [merchant.merchant_id]);
    await expect
      .poll(async () => Promise.all(webs.map(async (web) => (await call(web, merchant)).status)), { timeout: 2_000, interval: 20 })
      .toEqual([200, 200]);
  });
});
