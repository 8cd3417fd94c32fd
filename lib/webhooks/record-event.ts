import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { afterCommit } from "@/lib/db/transaction";
import { notifyDeliveriesRecorded } from "@/lib/db/work-signals";

export interface WebhookEventInput {
  merchantId: string;
  eventType: string;
  /** The uuid of the payment, wallet or payout. */
  objectId: string;
  body: object;
  /** url_callback of the object, already checked when it was accepted. */
  callbackUrl?: string | null;
  now: Date;
  /** The merchant's registered endpoint URL (null: none), when the caller read it already for many events. */
  endpointUrl?: string | null;
}

/**
 * Records an event for delivery, inside the caller's transaction: one row for the registered
 * endpoint and one for the object's url_callback (once if they are the same URL). The body is
 * serialised here, once, so every attempt sends the same bytes. Once the transaction commits,
 * the background driver is told (it would find them at its next poll anyway). Returns the
 * delivery ids.
 */
export async function recordWebhookEvent(tx: Tx, event: WebhookEventInput): Promise<string[]> {
  const endpointUrl = event.endpointUrl !== undefined ? event.endpointUrl : await findEndpointUrl(tx, event.merchantId);
  const targets: { target: "endpoint" | "callback"; url: string }[] = [];
  if (endpointUrl) targets.push({ target: "endpoint", url: endpointUrl });
  if (event.callbackUrl && event.callbackUrl !== endpointUrl) targets.push({ target: "callback", url: event.callbackUrl });
  if (targets.length === 0) return [];
  const body = JSON.stringify(event.body);
  const rows = targets.map((target) => ({
    id: randomUUID(),
    merchantId: event.merchantId,
    eventType: event.eventType,
    objectId: event.objectId,
    target: target.target,
    url: target.url,
    body,
    nextAttemptAt: event.now,
    createdAt: event.now,
    updatedAt: event.now,
  }));
  await tx.webhookDelivery.createMany({ data: rows });
  const ids = rows.map((row) => row.id);
  afterCommit(tx, () => notifyDeliveriesRecorded(ids));
  return ids;
}

/** A merchant's registered webhook URL, or null. */
export async function findEndpointUrl(tx: Tx, merchantId: string): Promise<string | null> {
  const endpoint = await tx.webhookEndpoint.findUnique({ where: { merchantId }, select: { url: true } });
  return endpoint?.url || null;
}
