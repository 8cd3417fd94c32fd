import type { WebhookEvent } from "@/generated/prisma/client";
import type { DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import type { DeliveryRecord } from "@/lib/services/webhooks/list-deliveries";

/** How long the event log keeps an event (designed: 30 days). */
export const EVENT_RETENTION_DAYS = 30;

/**
 * The oldest creation time of an event still kept at `now`. Older events are gone for every
 * reader from that moment, whether or not the purge has deleted their rows yet.
 */
export function eventsRetainedSince(now: Date): Date {
  return new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
}

/** Where an event's deliveries stand, in a list item: counts by status and the newest one's status. */
export interface EventDeliveriesSummary {
  count: number;
  delivered: number;
  pending: number;
  dead: number;
  /** Status of the newest delivery (a redelivery is newer than the first ones); null when none was made. */
  last_status: DeliveryStatus | null;
}

/** An event as `POST /v1/events/list` answers it. */
export interface EventListItem {
  id: string;
  type: string;
  object_id: string;
  created_at: string;
  /** The body exactly as delivered, parsed. */
  data: unknown;
  deliveries: EventDeliveriesSummary;
}

/** An event as `POST /v1/events/info` answers it: with its deliveries, newest first. */
export interface EventDetail extends Omit<EventListItem, "deliveries"> {
  deliveries: DeliveryRecord[];
}

export const NO_DELIVERIES: EventDeliveriesSummary = { count: 0, delivered: 0, pending: 0, dead: 0, last_status: null };

/** The fields every projection of an event shares. */
export function toEventFields(event: Pick<WebhookEvent, "id" | "type" | "objectId" | "body" | "createdAt">) {
  return { id: event.id, type: event.type, object_id: event.objectId, created_at: event.createdAt.toISOString(), data: JSON.parse(event.body) as unknown };
}
