import type { Tx } from "@/lib/db/client";
import { afterCommit } from "@/lib/db/transaction";
import type { SendOptions } from "@/lib/webhooks/send-request";
import type { TxDeps, UnitOfWork } from "@/lib/deps/unit-of-work";
import { notifyDeliveriesRecorded } from "@/lib/db/work-signals";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";
import { vetWebhookUrlOrThrow } from "@/lib/services/webhooks/manage-endpoint";
import { toDeliveryRecord, type DeliveryRecord } from "@/lib/api/serialize/webhook";
import { findEndpointUrl, newDeliveryRow } from "@/lib/webhooks/record-event";
import { eventsRetainedSince } from "@/lib/services/events/event-retention";

export interface Redelivery {
  merchantId: string;
  /** The event. */
  id: string;
  /** Another URL to deliver to instead of the registered endpoint; it passes the SSRF rule of registration. */
  url?: string;
}

/**
 * Records a new delivery of an event, now: the same body bytes and the same event id, to the
 * registered endpoint (`webhook.no_endpoint` when none is) or to `url`. It is a delivery
 * like any other (its own X-Webhook-Id, signed with the current secret, retried on the usual
 * schedule), for every event type. Returns the delivery.
 */
export const redeliverEvent = {
  prepare: async (deps: { sendOptions: Pick<SendOptions, "allowLoopback"> }, redelivery: Redelivery): Promise<Redelivery> => {
    if (!isUuid(redelivery.id)) throw new AppError("event.bad_id");
    return { ...redelivery, url: redelivery.url === undefined ? undefined : await vetWebhookUrlOrThrow(redelivery.url, deps.sendOptions.allowLoopback) };
  },
  execute: async (tx: Tx, deps: Pick<TxDeps, "now">, { merchantId, id, url }: Redelivery): Promise<DeliveryRecord> => {
    const now = deps.now();
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
  },
} satisfies UnitOfWork<Redelivery, Redelivery, DeliveryRecord>;

async function endpointTargetOrThrow(tx: Parameters<typeof findEndpointUrl>[0], merchantId: string) {
  const url = await findEndpointUrl(tx, merchantId);
  if (!url) throw new AppError("webhook.no_endpoint", "No webhook endpoint is registered; register one, or pass url.");
  return { target: "endpoint" as const, url };
}
