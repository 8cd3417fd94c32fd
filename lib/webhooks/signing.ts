import type { SigningSecrets } from "./signing-secrets";
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * spec: Events — X-Webhook-Signature is the hex HMAC-SHA256, keyed with the endpoint secret,
 * of `<X-Webhook-Timestamp>.<raw body>` (no method, path or line feeds).
 */
export function signWebhook(secret: string, timestamp: string, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

export interface VerifyWebhookInput {
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** Headers of the delivery (a Headers object or a plain object with lower-case names). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The current secret, and during a rotation the previous one too. */
  secrets: readonly string[];
  /** Accepted age of X-Webhook-Timestamp in seconds; default 300. */
  toleranceSeconds?: number;
  /** Unix seconds now; default the system clock. */
  nowSeconds?: number;
}

function header(headers: VerifyWebhookInput["headers"], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a delivery for a merchant's receiver: the timestamp is fresh and one of the
 * signatures (X-Webhook-Signature, or X-Webhook-Signature-Previous during a secret rotation)
 * matches one of the secrets, compared in constant time.
 */
export function verifyWebhook(input: VerifyWebhookInput): boolean {
  const timestamp = header(input.headers, "x-webhook-timestamp");
  if (!timestamp || !/^\d{1,15}$/.test(timestamp)) return false;
  const nowSeconds = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (input.toleranceSeconds ?? 300)) return false;
  const provided = ["x-webhook-signature", "x-webhook-signature-previous"]
    .map((name) => header(input.headers, name))
    // Hex only: 64 characters of anything else could be more than 64 bytes, which the comparison refuses by throwing.
    .filter((value): value is string => typeof value === "string" && /^[0-9a-f]{64}$/i.test(value))
    .map((value) => Buffer.from(value, "utf8"));
  let isValid = false;
  for (const secret of input.secrets) {
    const expected = Buffer.from(signWebhook(secret, timestamp, input.rawBody), "utf8");
    // Every comparison runs, so the time taken does not say which one matched.
    for (const candidate of provided) isValid = timingSafeEqual(candidate, expected) || isValid;
  }
  return isValid;
}

/**
 * spec: Events — the headers of a delivery, signed over `<timestamp>.<raw body>`. X-Webhook-Id is
 * the delivery (the same on every attempt); X-Webhook-Event-Id is the event (the same on every
 * delivery and redelivery of it), absent where there is no recorded event (test deliveries, and
 * deliveries recorded before the event log).
 */
export function buildDeliveryHeaders(
  delivery: { id: string; eventId?: string | null; eventType: string; body: string },
  secrets: SigningSecrets,
  timestamp: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-webhook-event": delivery.eventType,
    "x-webhook-timestamp": timestamp,
    "x-webhook-signature": signWebhook(secrets.current, timestamp, delivery.body),
    "x-webhook-id": delivery.id,
  };
  if (delivery.eventId) headers["x-webhook-event-id"] = delivery.eventId;
  if (secrets.previous) headers["x-webhook-signature-previous"] = signWebhook(secrets.previous, timestamp, delivery.body);
  return headers;
}
