import type { Db } from "@/lib/db/client";
import { eventsRetainedSince } from "@/lib/services/events/event-retention";

export interface PurgeOptions {
  /** Events deleted per statement: each chunk is a short transaction of its own. */
  chunkSize?: number;
  /** Chunks per run at most, so one run stays short; the next run continues. */
  maxChunks?: number;
}

/**
 * Deletes the events past their retention, oldest first, in bounded chunks; returns how many.
 *
 * Deliveries are kept: they are the deliveries log and the invoice timeline of the cabinet, and
 * their own body still holds what was sent. The foreign key clears their `event_id` (ON DELETE
 * SET NULL). An event with a delivery still pending is kept until that delivery ends, so
 * a redelivery made near the end of the retention still carries X-Webhook-Event-Id on every attempt.
 * Rows another transaction holds (a redelivery reading the event) are skipped, not waited for.
 */
export async function purgeExpiredEvents(db: Db, now: Date, options: PurgeOptions = {}): Promise<number> {
  const chunkSize = options.chunkSize ?? 1000;
  const maxChunks = options.maxChunks ?? 20;
  const cutoff = eventsRetainedSince(now);
  let deleted = 0;
  for (let chunk = 0; chunk < maxChunks; chunk++) {
    const count = await db.$executeRaw`
      DELETE FROM webhook_events
       WHERE id IN (
         SELECT e.id FROM webhook_events e
          WHERE e.created_at < ${cutoff}
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
          ORDER BY e.created_at
          LIMIT ${chunkSize}
          FOR UPDATE SKIP LOCKED)`;
    deleted += count;
    if (count < chunkSize) break;
  }
  return deleted;
}
