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

export interface RecordedWebhookEvent {
  eventId: string;
  deliveryIds: string[];
}

/**
 * Records an event for delivery, inside the caller's transaction: the event itself (always,
 * so the merchant's event log has it even when nothing is delivered), one delivery for the
 * registered endpoint and one for the object's url_callback (once if they are the same URL).
 * The body is serialised here, once, so every attempt and redelivery sends the same bytes.
 * Once the transaction commits, the background driver is told (it would find them at its next
 * poll anyway). Returns the delivery ids.
 */
export async function recordWebhookEvent(tx: Tx, event: WebhookEventInput): Promise<string[]> {
  const [recorded] = await recordWebhookEvents(tx, [event]);
  return recorded.deliveryIds;
}

/**
 * Records many events at once (see recordWebhookEvent): one insert of events and one of
 * deliveries whatever their number, so a batch costs two statements, not two per element.
 * Returns each event's id and delivery ids, in the order given.
 */
export async function recordWebhookEvents(tx: Tx, events: readonly WebhookEventInput[]): Promise<RecordedWebhookEvent[]> {
  if (events.length === 0) return [];
  const endpointUrls = await findEndpointUrls(
    tx,
    events.filter((event) => event.endpointUrl === undefined).map((event) => event.merchantId),
  );
  const eventRows = events.map((event) => ({
    id: randomUUID(),
    merchantId: event.merchantId,
    type: event.eventType,
    objectId: event.objectId,
    body: JSON.stringify(event.body),
    createdAt: event.now,
  }));
  const deliveryRows = events.flatMap((event, index) => {
    const endpointUrl = event.endpointUrl !== undefined ? event.endpointUrl : (endpointUrls.get(event.merchantId) ?? null);
    const targets: { target: "endpoint" | "callback"; url: string }[] = [];
    if (endpointUrl) targets.push({ target: "endpoint", url: endpointUrl });
    if (event.callbackUrl && event.callbackUrl !== endpointUrl) targets.push({ target: "callback", url: event.callbackUrl });
    const eventRow = eventRows[index];
    return targets.map((target) => newDeliveryRow(eventRow, target, event.now));
  });
  await tx.webhookEvent.createMany({ data: eventRows });
  if (deliveryRows.length > 0) {
    await tx.webhookDelivery.createMany({ data: deliveryRows });
    const ids = deliveryRows.map((row) => row.id);
    afterCommit(tx, () => notifyDeliveriesRecorded(ids));
  }
  const deliveryIdsByEvent = new Map<string, string[]>();
  for (const row of deliveryRows) deliveryIdsByEvent.set(row.eventId, [...(deliveryIdsByEvent.get(row.eventId) ?? []), row.id]);
  return eventRows.map((eventRow) => ({ eventId: eventRow.id, deliveryIds: deliveryIdsByEvent.get(eventRow.id) ?? [] }));
}

/** A pending delivery of a recorded event to one URL, due at once. */
export function newDeliveryRow(
  event: { id: string; merchantId: string; type: string; objectId: string; body: string },
  target: { target: "endpoint" | "callback"; url: string },
  now: Date,
) {
  return {
    id: randomUUID(),
    merchantId: event.merchantId,
    eventId: event.id,
    eventType: event.type,
    objectId: event.objectId,
    target: target.target,
    url: target.url,
    body: event.body,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
}

/** A merchant's registered webhook URL, or null. */
export async function findEndpointUrl(tx: Tx, merchantId: string): Promise<string | null> {
  const endpoint = await tx.webhookEndpoint.findUnique({ where: { merchantId }, select: { url: true } });
  return endpoint?.url || null;
}

/** The registered URLs of several merchants, in one query; a merchant without one is absent. */
async function findEndpointUrls(tx: Tx, merchantIds: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(merchantIds)];
  if (unique.length === 0) return new Map();
  const endpoints = await tx.webhookEndpoint.findMany({ where: { merchantId: { in: unique } }, select: { merchantId: true, url: true } });
  return new Map(endpoints.filter((endpoint) => endpoint.url).map((endpoint) => [endpoint.merchantId, endpoint.url!]));
}
