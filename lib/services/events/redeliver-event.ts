import type { Db } from "@/lib/db/client";
import { afterCommit, withTransaction } from "@/lib/db/transaction";
import { notifyDeliveriesRecorded } from "@/lib/db/work-signals";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";
import { vetWebhookUrlOrThrow } from "@/lib/services/webhooks/manage-endpoint";
import { toDeliveryRecord, type DeliveryRecord } from "@/lib/api/serialize/webhook";
import { findEndpointUrl, newDeliveryRow } from "@/lib/webhooks/record-event";
import { eventsRetainedSince } from "@/lib/services/events/event-retention";

export interface RedeliverOptions {
  /** Another URL to deliver to instead of the registered endpoint; it passes the SSRF rule of registration. */
  url?: string;
  /** Whether loopback URLs pass (the operator's setting, for local development). */
  allowLoopback?: boolean;
}

/**
 * Records a new delivery of an event, now: the same body bytes and the same event id, to the
 * registered endpoint (`webhook.no_endpoint` when none is) or to `options.url`. It is a delivery
 * like any other (its own X-Webhook-Id, signed with the current secret, retried on the usual
 * schedule), for every event type. Returns the delivery.
 */
export async function redeliverEvent(db: Db, merchantId: string, id: string, now: Date, options: RedeliverOptions = {}): Promise<DeliveryRecord> {
  if (!isUuid(id)) throw new AppError("event.bad_id");
  const url = options.url === undefined ? undefined : await vetWebhookUrlOrThrow(options.url, options.allowLoopback ?? false);
  return withTransaction(db, async (tx) => {
    // FOR KEY SHARE: retention cannot delete the event between this read and the insert that
    // points at it; and an event past its retention is not redelivered (the purge may be on it).
    const retainedSince = eventsRetainedSince(now);
    const [event] = await tx.$queryRaw<{ id: string; merchantId: string; type: string; objectId: string; body: string }[]>`
      SELECT id::text AS id, merchant_id::text AS "merchantId", type, object_id AS "objectId", body
        FROM webhook_events
       WHERE id = ${id.toLowerCase()}::uuid AND merchant_id = ${merchantId}::uuid AND created_at >= ${retainedSince}
         FOR KEY SHARE`;
    if (!event) throw new AppError("event.not_found");
    const target = url ? { target: "callback" as const, url } : await endpointTargetOrThrow(tx, merchantId);
    const row = newDeliveryRow(event, target, now);
    const delivery = await tx.webhookDelivery.create({ data: row });
    afterCommit(tx, () => notifyDeliveriesRecorded([delivery.id]));
    return toDeliveryRecord(delivery);
  });
}

async function endpointTargetOrThrow(tx: Parameters<typeof findEndpointUrl>[0], merchantId: string) {
  const url = await findEndpointUrl(tx, merchantId);
  if (!url) throw new AppError("webhook.no_endpoint", "No webhook endpoint is registered; register one, or pass url.");
  return { target: "endpoint" as const, url };
}
