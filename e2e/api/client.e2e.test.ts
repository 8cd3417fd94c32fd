import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { constructEvent, GatewayClient, isGatewayError } from "@/client/src";
import { runCli, startService, type RunningService } from "../testing/service";

// The typed client against `npm start` as an integrator meets it: the document the service
// serves is the one the client was generated from, and the main flow runs end to end.

describe("the typed client against the running service", () => {
  let service: RunningService | undefined;
  let receiver: WebhookReceiver | undefined;
  afterAll(async () => {
    await receiver?.close();
    await service?.stop();
    if (service) fs.rmSync(service.dataDir, { recursive: true, force: true });
  });

  it("matches the served document, creates and replays an invoice, receives its signed event, finds it in the event log, and types errors", async () => {
    service = await startService({ extraEnv: { GATEWAY_ALLOW_LOOPBACK_URLS: "1" } });
    const served = await (await fetch(`${service.baseUrl}/v1/openapi.json`)).json();
    const generated = JSON.parse(fs.readFileSync("client/openapi.json", "utf8"));
    expect(served.paths).toEqual(generated.paths);
    expect(served.webhooks).toEqual(generated.webhooks);

    const key = runCli(service.env, ["merchant", "create", "--name", "Client shop"]).json;
    const gateway = new GatewayClient({ baseUrl: service.baseUrl, publicId: key.public_id, secret: key.secret });
    receiver = await startWebhookReceiver();
    const endpoint = await gateway.webhooks.register({ url: `${receiver.url}/hooks` });

    const body = { amount: "15.00", currency: "USDT", network: "tron", order_id: "client-e2e-1" };
    const invoice = await gateway.payments.create(body, { idempotencyKey: "client-e2e-1" });
    const replayed = await gateway.payments.create(body, { idempotencyKey: "client-e2e-1" });
    expect(replayed.uuid).toBe(invoice.uuid);

    await gateway.request("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address!, amount: invoice.payer_amount! });
    await gateway.request("/v1/sandbox/mine", { network: "tron", blocks: 30 });
    const deadline = Date.now() + 60_000;
    while (!receiver.received.some((request) => request.headers["x-webhook-event"] === "invoice.paid") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const delivery = receiver.received.find((request) => request.headers["x-webhook-event"] === "invoice.paid");
    expect(delivery, "invoice.paid delivered").toBeDefined();
    const event = constructEvent({ rawBody: delivery!.rawBody, headers: delivery!.headers as Record<string, string>, secrets: [endpoint.secret] });
    expect(event.type).toBe("invoice.paid");
    expect(event.body).toMatchObject({ uuid: invoice.uuid, status: "paid", is_final: true });

    const eventId = delivery!.headers["x-webhook-event-id"] as string;
    const logged = [];
    for await (const item of gateway.paginate("/v1/events/list", { object_id: invoice.uuid, limit: 1 })) logged.push(item);
    expect(logged.map((item) => item.id)).toContain(eventId);

    const info = await gateway.payments.info({ uuid: invoice.uuid });
    expect(info.payment_status).toBe("paid");

    const failure = await gateway.payments.info({ uuid: "00000000-0000-4000-8000-000000000000" }).catch((error: unknown) => error);
    expect(isGatewayError(failure, "/v1/payment/info")).toBe(true);
    if (isGatewayError(failure, "/v1/payment/info")) {
      expect(failure.code).toBe("payment.not_found");
      expect(failure.status).toBe(404);
      expect(failure.requestId).toMatch(/^req_/);
    }

    // The calls above are counted per operation and outcome on /metrics (a scrape from this machine).
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/gateway_api_requests_total\{[^}]*operation="\/v1\/payment\/info"[^}]*code="payment.not_found"[^}]*\} 1/);
  });
});
