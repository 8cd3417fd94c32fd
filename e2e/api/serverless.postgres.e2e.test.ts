import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_RECORDED_EVENT } from "@/lib/jobs/inngest/client";
import { ensureNextBuild, ensurePrismaClient } from "@/lib/runtime/prepare";
import { e2eDatabase } from "../testing/postgres-database";
import { startInngestStandIn, type InngestStandIn } from "../testing/inngest-stand-in";
import { findFreePort, runCli, serviceEnv, signedPost } from "../testing/service";

// The Vercel topology of docs/deployment.md: Next.js's own server (`next start`, as Vercel
// serves the application) with no process of ours around it — nothing boots, no worker runs —
// on PostgreSQL migrated by the build command, with the Inngest driver and the client address
// taken from the platform's header. The Inngest server is the protocol stand-in.

const database = e2eDatabase("serverless");

describe("next start alone (as on Vercel) with GATEWAY_WORKER=inngest", () => {
  let child: ChildProcess | undefined;
  let standIn: InngestStandIn | undefined;
  let baseUrl = "";
  let env = {} as NodeJS.ProcessEnv;
  let output = "";
  let dataDir = "";

  beforeAll(async () => {
    await database.create();
    ensurePrismaClient();
    ensureNextBuild();
    standIn = await startInngestStandIn();
    const port = await findFreePort();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-e2e-serverless-"));
    env = serviceEnv(port, dataDir, {
      DATABASE_URL: database.url,
      GATEWAY_MASTER_KEY: randomBytes(32).toString("hex"),
      GATEWAY_SANDBOX: "1",
      GATEWAY_WORKER: "inngest",
      GATEWAY_CLIENT_IP_HEADER: "x-real-ip",
      GATEWAY_ALLOW_LOOPBACK_URLS: "1",
      INNGEST_DEV: "1",
      INNGEST_BASE_URL: standIn.baseUrl,
    });
    // The build command of docs/deployment.md applies the migrations; nothing else does on Vercel.
    const migrated = spawnSync("npm", ["run", "--silent", "gateway", "--", "db", "migrate", "--json"], { env, encoding: "utf8" });
    expect(migrated.status, migrated.stderr).toBe(0);
    child = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "--port", String(port), "--hostname", "127.0.0.1"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`next start did not answer:\n${output}`);
      const answered = await fetch(`${baseUrl}/healthz`).then((response) => response.ok, () => false);
      if (answered) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 900_000);

  afterAll(async () => {
    if (child?.pid && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    await standIn?.close();
    await database.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("announces recorded deliveries to Inngest from the route handlers, and enforces the allow-list on the platform's client address", { timeout: 120_000 }, async () => {
    const merchant = runCli(env, ["merchant", "create", "--name", "Serverless Shop"]);
    expect(merchant.status).toBe(0);
    const key = merchant.json as { public_id: string; secret: string };
    const from = (address: string) => ({ "x-real-ip": address });
    const post = (route: string, body: unknown, address = "203.0.113.7") => signedPost(baseUrl, key, route, JSON.stringify(body), undefined, from(address));

    // The allow-list matches the address the platform reports; without the header nothing could match.
    expect((await post("/v1/api-allowlist/add", { cidr: "203.0.113.0/24" })).status).toBe(200);
    expect((await post("/v1/api-allowlist/enable", { enabled: true })).status).toBe(200);
    const outside = await post("/v1/api-allowlist/list", {}, "198.51.100.7");
    expect(outside).toMatchObject({ status: 401, body: { error: { code: "auth.ip_not_allowed" } } });
    expect((await post("/v1/api-allowlist/list", {})).body.result).toEqual({ entries: ["203.0.113.0/24"], enabled: true });

    // Recorded deliveries are announced after the commit, although no process of ours booted.
    expect((await post("/v1/webhooks", { url: "http://127.0.0.1:9/hooks" })).status).toBe(201);
    const created = await post("/v1/payment", { amount: "15.00", currency: "USD", to_currency: "USDT", network: "tron" });
    expect(created.status).toBe(200);
    const invoice = created.body.result;
    expect((await post("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount })).status).toBe(200);
    expect((await post("/v1/sandbox/mine", { network: "tron", blocks: invoice.required_confirmations })).status).toBe(200);
    expect((await post("/v1/payment/info", { uuid: invoice.uuid })).body.result.payment_status).toBe("paid");
    await expect.poll(() => standIn!.events.filter((event) => event.name === WEBHOOK_RECORDED_EVENT).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const announced = standIn!.events.filter((event) => event.name === WEBHOOK_RECORDED_EVENT).flatMap((event) => event.data.delivery_ids as string[]);
    const recorded = await database.query<{ id: string }>("SELECT id FROM webhook_deliveries");
    expect(new Set(announced)).toEqual(new Set(recorded.map((row) => row.id)));

    // Without `npm start`'s server in front, Next's own route renders the payment page.
    const page = await fetch(`${baseUrl}/pay/${invoice.uuid}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Pay 15.00 USD");
    expect(html).toContain("/_next/static/");
    expect((await fetch(`${baseUrl}/pay/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });
});
