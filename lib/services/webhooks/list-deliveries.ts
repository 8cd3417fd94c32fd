import { toDeliveryRecord, type DeliveryRecord } from "@/lib/api/serialize/webhook";
import type { Db } from "@/lib/db/client";

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
