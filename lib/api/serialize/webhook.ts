import { z } from "zod";
import type { DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import { MAX_SECRET_OVERLAP_HOURS } from "@/lib/webhooks/signing-secrets";

const timestamp = (what: string) => z.iso.datetime().describe(`${what} (RFC 3339, UTC).`);

/** Designed: the registered webhook endpoint, as `/v1/webhooks/info` answers it (never the secret). */
export const WEBHOOK_ENDPOINT_SCHEMA = z
  .object({
    url: z.string().describe("Where events are delivered."),
    created_at: timestamp("When the endpoint was first registered"),
    updated_at: timestamp("Last change of the URL or the secret"),
    previous_secret_expires_at: z.iso
      .datetime()
      .nullable()
      .describe(
        "Until when the replaced secret also signs deliveries (in `X-Webhook-Signature-Previous`), RFC 3339; null when no rotation overlap is running.",
      ),
  })
  .meta({ id: "WebhookEndpoint", description: "The registered webhook endpoint, without its secret." });

/** Designed: what registering or rotating answers — the endpoint and its new secret, shown only here. */
export const WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA = WEBHOOK_ENDPOINT_SCHEMA.extend({
  secret: z
    .string()
    .describe(
      "The new signing secret (`whsec_…`): the key of the HMAC-SHA256 in `X-Webhook-Signature`. Shown only in this answer; store it.",
    ),
}).meta({ id: "WebhookEndpointWithSecret", description: "The registered webhook endpoint with its new signing secret (shown once)." });

export const WEBHOOK_ENDPOINT_EXAMPLE = {
  url: "https://shop.example.com/webhooks/gateway",
  created_at: "2026-01-05T09:30:00.000Z",
  updated_at: "2026-03-01T12:00:00.000Z",
  previous_secret_expires_at: "2026-03-02T12:00:00.000Z",
};

export const WEBHOOK_SECRET_EXAMPLE = "whsec_q7Vb3kR9sYfX2mL0cT5nWd8hJ1pA4eGu6zKiOxNrBvE";

/** The range of `overlap_hours`, for the request descriptions. */
export const OVERLAP_HOURS_DESCRIPTION = `Hours (a whole number, 0–${MAX_SECRET_OVERLAP_HOURS}, default 24) the replaced secret keeps signing beside the new one; 0 ends it at once.`;

const DELIVERY_STATUSES = ["pending", "delivered", "dead"] as const satisfies readonly DeliveryStatus[];

/** spec: Webhook delivery record — one delivery of an event to one URL. */
export const WEBHOOK_DELIVERY_SCHEMA = z
  .object({
    id: z.uuid().describe("The delivery's identifier, sent as `X-Webhook-Id` on every attempt."),
    event_id: z
      .uuid()
      .nullable()
      .describe("The event delivered (see `POST /v1/events/info`); null for deliveries recorded before the event log existed, and once the event is past its retention."),
    url: z.string().describe("Where it is delivered: the registered endpoint or the object's `url_callback`."),
    event_type: z.string().describe("The event type, as in `X-Webhook-Event`, e.g. `invoice.paid`, `wallet.paid`, `payout.confirmed`."),
    status: z
      .enum(DELIVERY_STATUSES)
      .describe("`pending` (queued or waiting for its next attempt), `delivered` (the endpoint answered 2xx), `dead` (every attempt failed)."),
    attempts: z.number().int().describe("Attempts made so far."),
    last_error: z.string().describe("Why the last attempt failed (the endpoint's status or the network error); empty when none failed or once delivered."),
    created_at: timestamp("When the event was recorded for delivery"),
    updated_at: timestamp("Last attempt or change"),
  })
  .meta({ id: "WebhookDelivery", description: "One delivery of a webhook event to one URL." });

export const WEBHOOK_DELIVERY_EXAMPLE = {
  id: "2d7f0c6b-9a1e-4b3d-8c5f-7e6a1b0d9c24",
  event_id: "6a0e4f3c-1b2d-4c8e-9f7a-5d3b2c1e0f98",
  url: "https://shop.example.com/webhooks/gateway",
  event_type: "invoice.paid",
  status: "delivered" as const,
  attempts: 2,
  last_error: "",
  created_at: "2026-03-01T12:04:11.000Z",
  updated_at: "2026-03-01T12:04:22.000Z",
};

/** spec: Webhook delivery record. */
export interface DeliveryRecord {
  id: string;
  /** The event delivered (POST /v1/events/info); null before the event log and after the event's retention. */
  event_id: string | null;
  url: string;
  event_type: string;
  status: string;
  attempts: number;
  last_error: string;
  created_at: string;
  updated_at: string;
}

/** spec: Webhook delivery record — a delivery row as the API shows it. */
export function toDeliveryRecord(row: {
  id: string;
  eventId: string | null;
  url: string;
  eventType: string;
  status: string;
  attempts: number;
  lastError: string;
  createdAt: Date;
  updatedAt: Date;
}): DeliveryRecord {
  return {
    id: row.id,
    event_id: row.eventId,
    url: row.url,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
