import type { Db } from "@/lib/db/client";

/** spec: Webhook delivery record. */
export interface DeliveryRecord {
  id: string;
  /** The event delivered (POST /v1/events/info); null before the event log and after the event's retention. */
  event_id: string | null;
  url: string;
  event_type: string;
  status: string;
  attempts: number;
  last_error: string;
  created_at: string;
  updated_at: string;
}

/** spec: Limits — the deliveries log holds the 50 most recent. */
export const DELIVERIES_LOG_SIZE = 50;

/** The columns a delivery record is built from. */
export const DELIVERY_RECORD_SELECT = {
  id: true,
  eventId: true,
  url: true,
  eventType: true,
  status: true,
  attempts: true,
  lastError: true,
  createdAt: true,
  updatedAt: true,
} as const;

export async function listRecentDeliveries(db: Db, merchantId: string): Promise<DeliveryRecord[]> {
  const rows = await db.webhookDelivery.findMany({
    where: { merchantId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERIES_LOG_SIZE,
    select: DELIVERY_RECORD_SELECT,
  });
  return rows.map(toDeliveryRecord);
}

export function toDeliveryRecord(row: {
  id: string;
  eventId: string | null;
  url: string;
  eventType: string;
  status: string;
  attempts: number;
  lastError: string;
  createdAt: Date;
  updatedAt: Date;
}): DeliveryRecord {
  return {
    id: row.id,
    event_id: row.eventId,
    url: row.url,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
