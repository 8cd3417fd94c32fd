import type { WebhookEvent } from "@/generated/prisma/client";
import type { DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import type { DeliveryRecord } from "./webhook";

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
