import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/lib/db/client";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
import { isUuid } from "@/lib/domain/input/uuid";
import { MAX_WEBHOOK_ATTEMPTS } from "@/lib/domain/webhook-delivery/backoff";
import type { DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import { PAYMENT_EVENT_BY_STATUS, PAYOUT_INTERNAL_STATUSES } from "@/lib/webhooks/payloads";

// The cabinet's store-wide webhook delivery log, with filters and a keyset cursor (the API's
// POST /v1/webhooks/deliveries answers only the 50 newest); every read scoped by the merchant.

/** Every event type a delivery may carry (spec: Events). */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [...Object.values(PAYMENT_EVENT_BY_STATUS), "wallet.paid", ...PAYOUT_INTERNAL_STATUSES.map((status) => `payout.${status}`)];

/**
 * What the delivery log filters on: the stored statuses (pending, delivered, dead), and
 * `retrying` — pending deliveries that already failed at least once.
 */
export const DELIVERY_STATUS_FILTERS = ["pending", "retrying", "delivered", "dead"] as const satisfies readonly (DeliveryStatus | "retrying")[];
export type DeliveryStatusFilter = (typeof DELIVERY_STATUS_FILTERS)[number];

export interface DeliveryFilters {
  status?: DeliveryStatusFilter;
  eventType?: string;
  /** The payment, wallet deposit or payout the events are about. */
  objectId?: string;
}

export interface DeliveryRow {
  id: string;
  eventType: string;
  objectId: string;
  /** "endpoint" (the registered URL) or "callback" (the object's url_callback). */
  target: string;
  url: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  lastStatusCode: number | null;
  lastError: string;
  /** When the next attempt is due; null once delivered or dead. */
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** For a dead delivery: the newest later delivery of the same event about the same object to the same URL (a resend). */
  resentAs: { id: string; status: string; createdAt: Date } | null;
}

export interface DeliveryPage {
  items: DeliveryRow[];
  nextCursor: string | null;
}

export const MAX_DELIVERY_PAGE = 100;

function deliveryWhere(merchantId: string, filters: DeliveryFilters): Prisma.WebhookDeliveryWhereInput {
  const status: Prisma.WebhookDeliveryWhereInput =
    filters.status === "retrying" ? { status: "pending", attempts: { gt: 0 } } : filters.status ? { status: filters.status } : {};
  return {
    merchantId,
    ...status,
    ...(filters.eventType ? { eventType: filters.eventType } : {}),
    ...(filters.objectId ? { objectId: filters.objectId } : {}),
  };
}

/**
 * The store's webhook deliveries, newest first, a page at a time (an opaque cursor; a cursor that
 * is not one is `cabinet.bad_request`). Unlike POST /v1/webhooks/deliveries (the 50 newest), this
 * reaches every delivery kept.
 */
export async function searchWebhookDeliveries(db: Db, merchantId: string, filters: DeliveryFilters, page: { limit: number; cursor?: string }): Promise<DeliveryPage> {
  const limit = Math.min(Math.max(page.limit, 1), MAX_DELIVERY_PAGE);
  const position = page.cursor ? decodeCursor(page.cursor, "cabinet.bad_request") : null;
  const rows = await db.webhookDelivery.findMany({
    where: { AND: [deliveryWhere(merchantId, filters), after(position)] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: {
      id: true,
      eventType: true,
      objectId: true,
      target: true,
      url: true,
      status: true,
      attempts: true,
      lastStatusCode: true,
      lastError: true,
      nextAttemptAt: true,
      deliveredAt: true,
      createdAt: true,
      updatedAt: true,
    },
  });
  const pageRows = rows.slice(0, limit);
  const dead = pageRows.filter((row) => row.status === "dead");
  // A resend records new deliveries and leaves the dead one as it was: one query for the later
  // deliveries about the page's dead objects (merchant_id, object_id index).
  const later =
    dead.length === 0
      ? []
      : await db.webhookDelivery.findMany({
          where: { merchantId, objectId: { in: [...new Set(dead.map((row) => row.objectId))] }, createdAt: { gt: dead.reduce((min, row) => (row.createdAt < min ? row.createdAt : min), dead[0].createdAt) } },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          select: { id: true, objectId: true, eventType: true, url: true, status: true, createdAt: true },
        });
  const items = pageRows.map((row) => {
    const resend =
      row.status === "dead"
        ? later.find((candidate) => candidate.objectId === row.objectId && candidate.eventType === row.eventType && candidate.url === row.url && candidate.createdAt > row.createdAt)
        : undefined;
    return {
      ...row,
      maxAttempts: MAX_WEBHOOK_ATTEMPTS,
      nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
      resentAs: resend ? { id: resend.id, status: resend.status, createdAt: resend.createdAt } : null,
    };
  });
  const last = pageRows[pageRows.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** One of the store's deliveries (what a resend needs), or null — another merchant's id included. */
export async function findMerchantDelivery(db: Db, merchantId: string, deliveryId: string): Promise<{ id: string; eventType: string; objectId: string; status: string } | null> {
  if (!isUuid(deliveryId)) return null;
  return db.webhookDelivery.findFirst({ where: { id: deliveryId.toLowerCase(), merchantId }, select: { id: true, eventType: true, objectId: true, status: true } });
}

/** Whether the service can record a delivery's event again: payment events only (spec: Events — a separate resend operation). */
export function isResendableEvent(eventType: string): boolean {
  return (Object.values(PAYMENT_EVENT_BY_STATUS) as string[]).includes(eventType);
}
