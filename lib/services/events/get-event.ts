import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";
import { DELIVERY_RECORD_SELECT } from "@/lib/services/webhooks/list-deliveries";
import { toDeliveryRecord } from "@/lib/api/serialize/webhook";
import { toEventFields, type EventDetail } from "@/lib/api/serialize/event";
import { eventsRetainedSince } from "@/lib/services/events/event-retention";

/** At most this many deliveries come with an event (the newest): redeliveries could make more. */
export const EVENT_DELIVERIES_SHOWN = 100;

/**
 * One of the merchant's events with its deliveries, newest first. Another merchant's event, or one
 * past its retention at `now`, is `event.not_found`, exactly like one that does not exist, so ids
 * tell nothing across merchants.
 */
export async function getEvent(db: Db, merchantId: string, id: string, now: Date): Promise<EventDetail> {
  if (!isUuid(id)) throw new AppError("event.bad_id");
  const event = await db.webhookEvent.findFirst({
    where: { id: id.toLowerCase(), merchantId, createdAt: { gte: eventsRetainedSince(now) } },
    include: { deliveries: { orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: EVENT_DELIVERIES_SHOWN, select: DELIVERY_RECORD_SELECT } },
  });
  if (!event) throw new AppError("event.not_found");
  return { ...toEventFields(event), deliveries: event.deliveries.map(toDeliveryRecord) };
}
