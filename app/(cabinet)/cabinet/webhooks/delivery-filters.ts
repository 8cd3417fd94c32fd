import { isUuid } from "@/lib/domain/input/uuid";
import { DELIVERY_STATUS_FILTERS, WEBHOOK_EVENT_TYPES, type DeliveryFilters, type DeliveryStatusFilter } from "@/lib/services/webhooks/search-deliveries";

/** The search params of a page, as Next.js hands them over. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The delivery log's URL state. */
export interface DeliveryQuery {
  status: DeliveryStatusFilter | "";
  event: string;
  object: string;
}

/**
 * Other words for the stored statuses that links may use: a delivery whose attempts ran out is
 * stored as `dead` (lib/domain/webhook-delivery); "failed" and "gave_up" name the same thing.
 */
const STATUS_ALIASES: Record<string, DeliveryStatusFilter> = { failed: "dead", gave_up: "dead", queued: "pending" };

const first = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? "") : (value ?? "")).trim();

/** Reads the filters from the URL; anything unknown is left out rather than refused. */
export function readDeliveryQuery(params: SearchParams): DeliveryQuery {
  const statusText = first(params.status).toLowerCase();
  const status = STATUS_ALIASES[statusText] ?? ((DELIVERY_STATUS_FILTERS as readonly string[]).includes(statusText) ? (statusText as DeliveryStatusFilter) : "");
  const event = first(params.event);
  const object = first(params.object).toLowerCase();
  return { status, event: WEBHOOK_EVENT_TYPES.includes(event) ? event : "", object: isUuid(object) ? object : "" };
}

export function toDeliveryFilters(query: DeliveryQuery): DeliveryFilters {
  return { status: query.status || undefined, eventType: query.event || undefined, objectId: query.object || undefined };
}

/** The URL state as query parameters, without empty ones (for the pager's links). */
export function toQueryParams(query: DeliveryQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (query.status) params.status = query.status;
  if (query.event) params.event = query.event;
  if (query.object) params.object = query.object;
  return params;
}

export function hasFilters(query: DeliveryQuery): boolean {
  return Boolean(query.status || query.event || query.object);
}
