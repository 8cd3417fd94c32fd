import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { AppError } from "@/lib/errors";
import { buildDeliveryHeaders } from "@/lib/webhooks/signing";
import {
  buildPaymentEventBody,
  buildPayoutEventBody,
  buildWalletEventBody,
  isFinalPayoutStatus,
  PAYMENT_EVENT_BY_STATUS,
  PAYOUT_INTERNAL_STATUSES,
  toCoarsePayoutStatus,
  type PayoutInternalStatus,
} from "@/lib/webhooks/payloads";
import { sendWebhookRequest, type SendOptions } from "@/lib/webhooks/send-request";
import { getSigningSecrets } from "@/lib/webhooks/signing-secrets";
import { vetWebhookUrlOrThrow } from "./manage-endpoint";

export interface TestWebhookDeps {
  db: Db;
  secretBox: SecretBox;
  now(): Date;
  sendOptions: SendOptions;
  send?: typeof sendWebhookRequest;
}

export type TestFamily = "payment" | "wallet" | "payout";

export interface TestEventInput {
  currency?: string;
  network?: string;
  uuid?: string;
  order_id?: string;
  status?: string;
}

/** The event type and body of a test event; `webhook.bad_status` for a status the family does not have. */
export function buildTestEvent(family: TestFamily, input: TestEventInput): { eventType: string; body: object } {
  const uuid = input.uuid ?? randomUUID();
  const orderId = input.order_id ?? `test-${uuid.slice(0, 8)}`;
  const currency = (input.currency ?? "USDT").toUpperCase();
  const network = (input.network ?? "tron").toLowerCase();
  const txid = "0".repeat(64);
  switch (family) {
    case "payment": {
      const status = input.status ?? "paid";
      if (!Object.hasOwn(PAYMENT_EVENT_BY_STATUS, status)) throw new AppError("webhook.bad_status", `Payment test statuses: ${Object.keys(PAYMENT_EVENT_BY_STATUS).join(", ")}.`);
      const eventType = PAYMENT_EVENT_BY_STATUS[status as keyof typeof PAYMENT_EVENT_BY_STATUS];
      const isPaid = status === "paid" || status === "paid_over";
      return {
        eventType,
        body: buildPaymentEventBody(
          {
            uuid,
            order_id: orderId,
            amount: "10",
            currency,
            payment_amount: isPaid || status === "wrong_amount" ? (status === "wrong_amount" ? "4" : status === "paid_over" ? "12" : "10") : null,
            payer_amount: "10",
            payer_currency: currency,
            status,
            is_final: true,
            txid: isPaid || status === "wrong_amount" ? txid : "",
            additional_data: "",
          },
          { isTest: true },
        ),
      };
    }
    case "wallet": {
      const status = input.status ?? "paid";
      if (status !== "paid") throw new AppError("webhook.bad_status", "Wallet test status: paid.");
      return {
        eventType: "wallet.paid",
        body: buildWalletEventBody(
          { uuid, wallet_uuid: randomUUID(), order_id: orderId, address: "", network, currency, payment_amount: "10", payer_currency: currency, txid, status, is_final: true },
          { isTest: true },
        ),
      };
    }
    case "payout": {
      const status = input.status ?? "confirmed";
      if (!(PAYOUT_INTERNAL_STATUSES as readonly string[]).includes(status)) {
        throw new AppError("webhook.bad_status", `Payout test statuses: ${PAYOUT_INTERNAL_STATUSES.join(", ")}.`);
      }
      const internal = status as PayoutInternalStatus;
      return {
        eventType: `payout.${internal}`,
        body: buildPayoutEventBody(
          {
            uuid,
            order_id: orderId,
            amount: "10",
            currency,
            network,
            address: "",
            txid: internal === "sent" || internal === "confirmed" ? txid : "",
            status: toCoarsePayoutStatus(internal),
            is_final: isFinalPayoutStatus(internal),
          },
          { isTest: true },
        ),
      };
    }
  }
}

/**
 * spec: POST /v1/test-webhook/payment|wallet|payout — an unsigned test event to an explicit
 * URL. An endpoint that does not answer is `webhook.test_failed` (503).
 */
export async function sendTestWebhook(deps: TestWebhookDeps, family: TestFamily, input: TestEventInput & { url_callback?: string }) {
  if (!input.url_callback) throw new AppError("webhook.no_url");
  const url = await vetWebhookUrlOrThrow(input.url_callback, deps.sendOptions.allowLoopback);
  const event = buildTestEvent(family, input);
  const body = JSON.stringify(event.body);
  const timestamp = String(Math.floor(deps.now().getTime() / 1000));
  const headers = { "content-type": "application/json", "x-webhook-event": event.eventType, "x-webhook-timestamp": timestamp };
  const result = await (deps.send ?? sendWebhookRequest)(url, body, headers, deps.sendOptions);
  if (result.statusCode === undefined) throw new AppError("webhook.test_failed", `The endpoint did not answer (${result.error ?? "no answer"}).`);
  return { result: result.isDelivered, status_code: result.statusCode };
}

/**
 * spec: POST /v1/payment/testing-webhook (legacy) — synchronous; to the registered endpoint
 * (signed with its real secret) when no url is given, else unsigned to the url. Whether the
 * endpoint answered is part of the result, not an error.
 */
export async function sendLegacyTestWebhook(deps: TestWebhookDeps, merchantId: string, input: { url?: string; status?: string }) {
  const event = buildTestEvent("payment", { status: input.status ?? "paid" });
  const body = JSON.stringify(event.body);
  const timestamp = String(Math.floor(deps.now().getTime() / 1000));
  let url: string;
  let headers: Record<string, string>;
  const isSigned = input.url === undefined;
  if (isSigned) {
    const endpoint = await deps.db.webhookEndpoint.findUnique({ where: { merchantId }, select: { url: true } });
    if (!endpoint?.url) throw new AppError("webhook.no_endpoint");
    url = endpoint.url;
    const secrets = await getSigningSecrets(deps.db, deps.secretBox, merchantId, deps.now());
    headers = buildDeliveryHeaders({ id: randomUUID(), eventType: event.eventType, body }, secrets, timestamp);
  } else {
    if (input.url === "") throw new AppError("webhook.no_url");
    url = await vetWebhookUrlOrThrow(input.url!, deps.sendOptions.allowLoopback);
    headers = { "content-type": "application/json", "x-webhook-event": event.eventType, "x-webhook-timestamp": timestamp };
  }
  const result = await (deps.send ?? sendWebhookRequest)(url, body, headers, deps.sendOptions);
  return {
    result: result.isDelivered,
    url,
    signed: isSigned,
    duration_ms: result.durationMs,
    ...(result.statusCode !== undefined ? { status_code: result.statusCode } : { error: result.error ?? "no answer" }),
  };
}
