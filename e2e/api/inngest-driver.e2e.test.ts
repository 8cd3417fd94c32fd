import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_RECORDED_EVENT } from "@/lib/jobs/inngest/client";
import { PERIODIC_JOBS } from "@/lib/jobs/catalogue";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { verifyWebhook } from "@/lib/webhooks/signing";
import { executeInngestFunction, startInngestStandIn, type InngestStandIn } from "../testing/inngest-stand-in";
import { runCli, signedPost, startService, type RunningService } from "../testing/service";

// The Inngest driver as deployed (docs/deployment.md: "Vercel with Inngest"): `npm start` with
// GATEWAY_WORKER=inngest serves the functions at /api/inngest and runs no job itself. The Inngest
// server is a stand-in (e2e/testing/inngest-stand-in.ts) that speaks the SDK's protocol: the
// real dev server is a binary that its npm package downloads at install time.

describe("GATEWAY_WORKER=inngest", () => {
  let service: RunningService | undefined;
  let standIn: InngestStandIn | undefined;
  let receiver: WebhookReceiver | undefined;

  beforeAll(async () => {
    standIn = await startInngestStandIn();
    receiver = await startWebhookReceiver(() => 200);
    service = await startService({
      extraEnv: { GATEWAY_WORKER: "inngest", INNGEST_DEV: "1", INNGEST_BASE_URL: standIn.baseUrl, GATEWAY_ALLOW_LOOPBACK_URLS: "1" },
      timeoutMs: 840_000,
    });
  }, 900_000);

  afterAll(async () => {
    await service?.stop();
    if (service) fs.rmSync(service.dataDir, { recursive: true, force: true });
    await receiver?.close();
    await standIn?.close();
  });

  it("serves one function per job at /api/inngest, announces recorded deliveries, and delivers them only when Inngest runs the function", { timeout: 120_000 }, async () => {
    const introspection = await fetch(`${service!.baseUrl}/api/inngest`);
    expect(introspection.status).toBe(200);
    expect(await introspection.json()).toMatchObject({ function_count: PERIODIC_JOBS.length, mode: "dev" });

    const merchant = runCli(service!.env, ["merchant", "create", "--name", "Inngest Shop"]);
    expect(merchant.status).toBe(0);
    const key = merchant.json as { merchant_id: string; public_id: string; secret: string };
    const registered = await signedPost(service!.baseUrl, key, "/v1/webhooks", JSON.stringify({ url: receiver!.url }));
    expect(registered.status).toBe(201);
    const created = await signedPost(service!.baseUrl, key, "/v1/payment", JSON.stringify({ amount: "20.00", currency: "USD", to_currency: "USDT", network: "tron" }));
    expect(created.status).toBe(200);
    const invoice = created.body.result;
    const deposit = { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount };
    expect((await signedPost(service!.baseUrl, key, "/v1/sandbox/deposit", JSON.stringify(deposit))).status).toBe(200);
    expect((await signedPost(service!.baseUrl, key, "/v1/sandbox/mine", JSON.stringify({ network: "tron", blocks: invoice.required_confirmations }))).status).toBe(200);
    const info = await signedPost(service!.baseUrl, key, "/v1/payment/info", JSON.stringify({ uuid: invoice.uuid }));
    expect(info.body.result.payment_status).toBe("paid");

    // After the commit, the process tells Inngest that deliveries were recorded …
    await expect.poll(() => standIn!.events.filter((event) => event.name === WEBHOOK_RECORDED_EVENT).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const announced = standIn!.events.filter((event) => event.name === WEBHOOK_RECORDED_EVENT);
    expect(announced.every((event) => Array.isArray(event.data.delivery_ids) && (event.data.delivery_ids as string[]).length > 0)).toBe(true);
    // … and sends nothing itself: no built-in worker runs in this process. A delivery that must not
    // come cannot be polled for: the window lets a built-in worker's passes (every second) go by.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(receiver!.received).toHaveLength(0);

    // Inngest runs the delivery function for the event, through the route as it would.
    const run = await executeInngestFunction(`${service!.baseUrl}/api/inngest`, "gateway-webhook-deliver", announced[announced.length - 1]);
    expect(run.ops.filter((op) => op.op === "StepRun").map((op) => (op as { name?: string }).name)).toContain("deliver-0");
    const passes = run.result as { attempted: number; delivered: number }[];
    const delivered = passes.reduce((sum, pass) => sum + pass.delivered, 0);
    expect(delivered).toBeGreaterThan(0);
    expect(receiver!.received).toHaveLength(delivered);
    const paid = receiver!.received.map((request) => JSON.parse(request.rawBody)).find((body) => body.status === "paid");
    expect(paid).toMatchObject({ uuid: invoice.uuid, status: "paid" });
    for (const request of receiver!.received) {
      expect(verifyWebhook({ rawBody: request.rawBody, headers: request.headers as Record<string, string>, secrets: [registered.body.secret] })).toBe(true);
    }
    const deliveredIds = new Set(receiver!.received.map((request) => request.headers["x-webhook-id"]));
    expect(deliveredIds.size).toBe(receiver!.received.length);

    // A second run finds nothing left: the function is idempotent over the delivery rows.
    const again = await executeInngestFunction(`${service!.baseUrl}/api/inngest`, "gateway-webhook-deliver", { name: "inngest/scheduled.timer", data: { cron: "* * * * *" } });
    expect((again.result as { attempted: number }[])[0].attempted).toBe(0);
    expect(receiver!.received).toHaveLength(delivered);

    // A cron function runs its job through the same route.
    const expire = await executeInngestFunction(`${service!.baseUrl}/api/inngest`, "gateway-invoice-expire", { name: "inngest/scheduled.timer", data: { cron: "* * * * *" } });
    expect(expire.ops.map((op) => op.op)).toEqual(["StepRun"]);
  });
});
