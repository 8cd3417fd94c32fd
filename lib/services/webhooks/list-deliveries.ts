import type { Db } from "@/lib/db/client";

/** spec: Webhook delivery record. */
export interface DeliveryRecord {
  id: string;
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

export async function listRecentDeliveries(db: Db, merchantId: string): Promise<DeliveryRecord[]> {
  const rows = await db.webhookDelivery.findMany({
    where: { merchantId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERIES_LOG_SIZE,
    select: { id: true, url: true, eventType: true, status: true, attempts: true, lastError: true, createdAt: true, updatedAt: true },
  });
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }));
}
