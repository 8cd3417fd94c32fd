import { randomUUID } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { verifyWebhook } from "@/lib/webhooks/signing";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, signedPost, startService, type RunningService } from "../testing/service";

// The operator's path on a fresh checkout: npm start, the CLI, a signed call; then a restart.
describe("npm start with the embedded database", () => {
  let service: RunningService | undefined;
  afterAll(async () => {
    await service?.stop();
    if (service) fs.rmSync(service.dataDir, { recursive: true, force: true });
  });

  it("serves, and the CLI's merchant key signs calls that the gateway verifies over the raw bytes", async () => {
    service = await startService({ extraEnv: { GATEWAY_ALLOW_LOOPBACK_URLS: "1" } });
    const health = await fetch(`${service.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const healthBody = await health.json();
    expect(healthBody.ok).toBe(true);
    expect(healthBody.sandbox).toBe(true);
    expect(healthBody.networks.every((network: { source: string }) => network.source === "sandbox")).toBe(true);

    const created = runCli(service.env, ["merchant", "create", "--name", "E2E Shop"]);
    expect(created.status).toBe(0);
    expect(Object.keys(created.json).sort()).toEqual(["merchant_id", "public_id", "secret"]);

    const ok = await signedPost(service.baseUrl, created.json, "/v1/payment/services", "{}");
    expect(ok.status).toBe(200);
    expect(ok.body.state).toBe(0);
    expect(ok.body.result.length).toBeGreaterThan(20);

    // Every page forbids framing and referrers: the payment page (its fast path), the checkout,
    // the claim page, the cabinet, the documents — found or not.
    const invoice = await signedPost(service.baseUrl, created.json, "/v1/payment", JSON.stringify({ amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron" }));
    expect(invoice.status).toBe(200);
    const pages = [`/pay/${invoice.body.result.uuid}`, `/pay/${randomUUID()}`, `/pay/link/${randomUUID()}`, `/pay/claim/${"a".repeat(43)}`, "/cabinet/sign-in", "/docs"];
    for (const page of pages) {
      const response = await fetch(`${service.baseUrl}${page}`, { redirect: "manual" });
      expect(response.headers.get("content-security-policy"), page).toMatch(/frame-ancestors 'none'/);
      expect([page, response.headers.get("x-frame-options"), response.headers.get("referrer-policy"), response.headers.get("x-content-type-options")]).toEqual([page, "DENY", "no-referrer", "nosniff"]);
    }

    // The Inngest endpoint is mounted for the Inngest driver only: the built-in worker runs here.
    expect((await fetch(`${service.baseUrl}/api/inngest`)).status).toBe(404);

    const tampered = await signedPost(service.baseUrl, created.json, "/v1/payment/services", '{"a":1}', '{"a":2}');
    expect(tampered.status).toBe(401);
    expect(tampered.body.error.code).toBe("merchant.bad_signature");

    const payoutKey = runCli(service.env, ["key", "create", "--merchant", created.json.merchant_id, "--kind", "payout"]);
    expect(payoutKey.json.kind).toBe("payout");
    const wrongKind = await signedPost(service.baseUrl, payoutKey.json, "/v1/payment/services", "{}");
    expect(wrongKind.status).toBe(403);
    expect(wrongKind.body.error.code).toBe("merchant.wrong_key_kind");
    expect(runCli(service.env, ["key", "revoke", "--public-id", payoutKey.json.public_id]).json).toEqual({ revoked: true });
    const revoked = await signedPost(service.baseUrl, payoutKey.json, "/v1/payout/services", "{}");
    expect(revoked.body.error.code).toBe("merchant.unknown_key");

    const unknownMerchant = runCli(service.env, ["key", "create", "--merchant", "00000000-0000-4000-8000-000000000000", "--kind", "payment"]);
    expect(unknownMerchant.status).not.toBe(0);
    expect(unknownMerchant.json.error.message).toMatch(/No merchant/);

    const catalogue = await fetch(`${service.baseUrl}/v1/currencies`);
    expect(catalogue.status).toBe(200);
    expect((await catalogue.json()).pricing_currencies).toHaveLength(38);

    const page = await fetch(service.baseUrl + "/");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Service status");

    // Restart on the same data directory: the data and the generated master key persist.
    const dataDir = service.dataDir;
    expect(await service.stop()).toBe(true);
    expect(fs.existsSync(`${dataDir}/embedded-db.json`)).toBe(false);
    service = await startService({ dataDir, extraEnv: { GATEWAY_ALLOW_LOOPBACK_URLS: "1" } });
    const afterRestart = await signedPost(service.baseUrl, created.json, "/v1/api-allowlist/list", "{}");
    expect(afterRestart.status).toBe(200);
  });

  it("runs the built-in worker: a recorded delivery reaches the merchant's endpoint, signed", async () => {
    const receiver = await startWebhookReceiver(() => 200);
    try {
      const created = runCli(service!.env, ["merchant", "create", "--name", "Webhook Shop"]);
      const registered = await signedPost(service!.baseUrl, created.json, "/v1/webhooks", JSON.stringify({ url: receiver.url }));
      expect(registered.status).toBe(201);
      // Record a delivery as a state change would, in the service's own (embedded) database.
      const { port } = JSON.parse(fs.readFileSync(`${service!.dataDir}/embedded-db.json`, "utf8"));
      const client = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable` });
      await client.connect();
      const body = JSON.stringify({ type: "payment", uuid: randomUUID(), status: "paid" });
      await client.query(
        `INSERT INTO webhook_deliveries (id, merchant_id, event_type, object_id, target, url, body, next_attempt_at) VALUES ($1, $2, 'invoice.paid', 'x', 'endpoint', $3, $4, now())`,
        [randomUUID(), created.json.merchant_id, receiver.url, body],
      );
      await client.end();
      await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
      const [delivery] = receiver.received;
      expect(delivery.rawBody).toBe(body);
      expect(verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers as Record<string, string>, secrets: [registered.body.secret] })).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("audits the live ledger from the operator CLI", async () => {
    const audit = runCli(service!.env, ["ledger", "audit"]);
    expect(audit.status).toBe(0);
    expect(audit.json).toEqual({
      clean: true,
      mismatched: [],
      negative: [],
      unbalanced_journals: [],
      transfers_vs_credits: [],
      settled_vs_journals: [],
      lots_vs_maturing: [],
      outgoing_vs_fees: [],
      payouts_vs_held: [],
      payouts_vs_journals: [],
      payouts_vs_transfers: [],
      refunds_vs_paid: [],
      splits_vs_held: [],
      blocked_vs_held: [],
      cold_vs_transfers: [],
      invoices_in_review: 0,
    });
  });

  it("refuses to start with a master key other than the one the data was written with", async () => {
    const dataDir = service!.dataDir;
    await service!.stop();
    await expect(startService({ dataDir, extraEnv: { GATEWAY_MASTER_KEY: "ab".repeat(32) }, timeoutMs: 120_000 })).rejects.toThrow(
      /master key does not match/,
    );
    service = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
