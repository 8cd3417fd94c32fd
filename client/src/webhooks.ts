import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookVerificationError } from "./errors";
import { WEBHOOK_EVENT_TYPES } from "./operations.generated";
import type { WebhookEvent } from "./types";

/** Delivery headers: a fetch `Headers`, or a plain object such as node's `request.headers` (any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookInput {
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  headers: WebhookHeaders;
  /** `[current]`, or `[current, previous]` while a rotation's overlap runs; empty entries are skipped. */
  secrets: readonly (string | null | undefined)[];
  /** Accepted age (either way) of X-Webhook-Timestamp, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** Unix seconds now. Default the system clock. */
  nowSeconds?: number;
}

const SIGNATURE_HEADERS = ["x-webhook-signature", "x-webhook-signature-previous"] as const;

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Hex HMAC-SHA256, keyed with the endpoint secret, of `<X-Webhook-Timestamp>.<raw body>`. */
export function signWebhook(secret: string, timestamp: string, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * Whether a delivery is authentic and fresh: X-Webhook-Timestamp is within the tolerance and
 * X-Webhook-Signature, or X-Webhook-Signature-Previous (sent during a secret rotation), matches
 * one of `secrets`. Every pair is compared in constant time, so the time taken tells nothing.
 */
export function verifyWebhook(input: VerifyWebhookInput): boolean {
  const timestamp = headerOf(input.headers, "x-webhook-timestamp");
  if (!timestamp || !/^\d{1,15}$/.test(timestamp)) return false;
  const nowSeconds = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (input.toleranceSeconds ?? 300)) return false;
  const provided = SIGNATURE_HEADERS.map((name) => headerOf(input.headers, name))
    // A signature's length is public (64 hex digits): refusing others early leaks nothing.
    // Hex only: 64 characters of anything else could be more than 64 bytes, which the comparison refuses by throwing.
    .filter((value): value is string => typeof value === "string" && /^[0-9a-f]{64}$/i.test(value))
    .map((value) => Buffer.from(value.toLowerCase(), "utf8"));
  let isValid = false;
  for (const secret of input.secrets) {
    if (!secret) continue;
    const expected = Buffer.from(signWebhook(secret, timestamp, input.rawBody), "utf8");
    for (const candidate of provided) isValid = timingSafeEqual(candidate, expected) || isValid;
  }
  return isValid;
}

function isKnownEventType(type: string): type is WebhookEvent["type"] {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Verifies a delivery (see verifyWebhook), then parses it into a typed event; narrow on
 * `event.type`. Throws WebhookVerificationError: `bad_signature` (not authentic or not fresh:
 * answer 4xx), `bad_body` (not JSON), `unknown_event` (authentic, but an event type this client
 * was not generated with: acknowledge it, or update the client).
 */
export function constructEvent(input: VerifyWebhookInput): WebhookEvent {
  if (!verifyWebhook(input)) throw new WebhookVerificationError("bad_signature", "The webhook signature does not match, or its timestamp is outside the tolerance.");
  const type = headerOf(input.headers, "x-webhook-event") ?? "";
  if (!isKnownEventType(type)) throw new WebhookVerificationError("unknown_event", `Unknown webhook event type "${type}".`);
  let body: unknown;
  try {
    body = JSON.parse(typeof input.rawBody === "string" ? input.rawBody : new TextDecoder("utf-8", { fatal: true }).decode(input.rawBody));
  } catch {
    throw new WebhookVerificationError("bad_body", "The webhook body is not JSON.");
  }
  if (body === null || typeof body !== "object") throw new WebhookVerificationError("bad_body", "The webhook body is not a JSON object.");
  return {
    type,
    eventId: headerOf(input.headers, "x-webhook-event-id") ?? null,
    deliveryId: headerOf(input.headers, "x-webhook-id") ?? null,
    timestamp: Number(headerOf(input.headers, "x-webhook-timestamp")),
    body,
  } as WebhookEvent;
}
