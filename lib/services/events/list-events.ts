import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/lib/db/client";
import type { DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
import { NO_DELIVERIES, toEventFields, type EventDeliveriesSummary, type EventListItem } from "@/lib/api/serialize/event";
import { eventsRetainedSince } from "@/lib/services/events/event-retention";

export interface EventFilter {
  /** Event types (`invoice.paid`) or prefixes (`invoice.*`); any of them matches. */
  type?: string | readonly string[];
  /** The payment, wallet deposit or payout the events are about. */
  objectId?: string;
  /** Inclusive lower bound of created_at. */
  dateFrom?: Date;
  /** Exclusive upper bound of created_at. */
  dateTo?: Date;
  /** 1 to 100; anything else gives DEFAULT_EVENTS_LIMIT, as the other lists clamp. */
  limit?: number;
  /** A `next_cursor` this list answered. */
  cursor?: string;
}

export interface EventPage {
  items: EventListItem[];
  paginate: { count: number; next_cursor: string | null };
}

export const DEFAULT_EVENTS_LIMIT = 20;
export const MAX_EVENTS_LIMIT = 100;
/** More type filters than event types exist is a mistake, not a query. */
export const MAX_TYPE_FILTERS = 20;

const EVENT_TYPE = /^[a-z][a-z_]*\.[a-z][a-z_]*$/;
const EVENT_TYPE_PREFIX = /^[a-z][a-z_]*\.\*$/;

/** The where clause of a type filter (exact types and `prefix.*`s, any of them); no filter when undefined. Refuses a malformed one. */
export function eventTypeWhere(type: string | readonly string[] | undefined): Prisma.WebhookEventWhereInput {
  const types = type === undefined ? null : parseEventTypeFilter(type);
  if (!types) return {};
  return { OR: [...(types.exact.length ? [{ type: { in: types.exact } }] : []), ...types.prefixes.map((prefix) => ({ type: { startsWith: prefix } }))] };
}

/**
 * Splits a type filter into exact types and prefixes (`invoice.*` → `invoice.`); anything that
 * is neither is `event.bad_type`.
 */
export function parseEventTypeFilter(type: string | readonly string[]): { exact: string[]; prefixes: string[] } {
  const values = typeof type === "string" ? [type] : type;
  if (values.length === 0 || values.length > MAX_TYPE_FILTERS) throw new AppError("event.bad_type", `Give 1 to ${MAX_TYPE_FILTERS} types.`);
  const exact: string[] = [];
  const prefixes: string[] = [];
  for (const value of values) {
    if (EVENT_TYPE.test(value)) exact.push(value);
    else if (EVENT_TYPE_PREFIX.test(value)) prefixes.push(value.slice(0, -1));
    else throw new AppError("event.bad_type", `Not an event type or prefix: ${JSON.stringify(value.slice(0, 64))}.`);
  }
  return { exact, prefixes };
}

/** The page size the other lists would use for this limit: outside 1–100 it is 20. */
export function clampEventsLimit(limit: number | undefined): number {
  return limit !== undefined && Number.isInteger(limit) && limit >= 1 && limit <= MAX_EVENTS_LIMIT ? limit : DEFAULT_EVENTS_LIMIT;
}

/**
 * A merchant's events still kept at `now`, newest first, with keyset pagination (stable while new
 * events arrive), each with a summary of its deliveries read in one grouped query for the whole page.
 */
export async function listEvents(db: Db, merchantId: string, filter: EventFilter, now: Date): Promise<EventPage> {
  const limit = clampEventsLimit(filter.limit);
  const position = filter.cursor ? decodeCursor(filter.cursor, "event.bad_cursor") : null;
  if (filter.objectId !== undefined && !isUuid(filter.objectId)) throw new AppError("event.bad_object_id");
  const typeWhere = eventTypeWhere(filter.type);
  const rows = await db.webhookEvent.findMany({
    where: {
      merchantId,
      ...(filter.objectId ? { objectId: filter.objectId.toLowerCase() } : {}),
      ...typeWhere,
      createdAt: { gte: latest(eventsRetainedSince(now), filter.dateFrom), ...(filter.dateTo ? { lt: filter.dateTo } : {}) },
      ...after(position),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const events = rows.slice(0, limit);
  const summaries = await summarizeDeliveries(db, events.map((event) => event.id));
  const items = events.map((event) => ({ ...toEventFields(event), deliveries: summaries.get(event.id) ?? NO_DELIVERIES }));
  return { items, paginate: { count: items.length, next_cursor: rows.length > limit ? encodeCursor(events[events.length - 1]) : null } };
}

/** The deliveries summary of each event, in one query over the deliveries' event_id index. */
async function summarizeDeliveries(db: Db, eventIds: string[]): Promise<Map<string, EventDeliveriesSummary>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ event_id: string; count: number; delivered: number; pending: number; dead: number; last_status: DeliveryStatus }[]>`
    SELECT event_id::text AS event_id,
           count(*)::int AS count,
           (count(*) FILTER (WHERE status = 'delivered'))::int AS delivered,
           (count(*) FILTER (WHERE status = 'pending'))::int AS pending,
           (count(*) FILTER (WHERE status = 'dead'))::int AS dead,
           (array_agg(status ORDER BY created_at DESC, id DESC))[1] AS last_status
      FROM webhook_deliveries
     WHERE event_id = ANY(${eventIds}::uuid[])
     GROUP BY event_id`;
  return new Map(rows.map(({ event_id, ...summary }) => [event_id, summary]));
}

/** The later of a retention bound and an optional filter bound. */
function latest(bound: Date, other: Date | undefined): Date {
  return other !== undefined && other > bound ? other : bound;
}
