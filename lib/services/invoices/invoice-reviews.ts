import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";

/**
 * An invoice the watcher could not evaluate is set aside in a durable review record (and
 * logged), so its network's watcher moves on; the watcher tries it again every pass.
 */
export async function setInvoiceAside(db: Db, input: { invoiceId: string; network: string; error: unknown }, now: Date): Promise<void> {
  const reason = (input.error instanceof Error ? input.error.message : String(input.error)).slice(0, 1000);
  log.error("invoice evaluation failed; set aside for review, retried every pass", { network: input.network, invoiceId: input.invoiceId, error: input.error });
  await db.$executeRaw`
    INSERT INTO invoice_reviews (invoice_id, network, failures, last_error, first_failed_at, last_failed_at)
    VALUES (${input.invoiceId}::uuid, ${input.network}, 1, ${reason}, ${now}, ${now})
    ON CONFLICT (invoice_id) DO UPDATE SET
      failures = CASE WHEN invoice_reviews.resolved_at IS NULL THEN invoice_reviews.failures + 1 ELSE 1 END,
      first_failed_at = CASE WHEN invoice_reviews.resolved_at IS NULL THEN invoice_reviews.first_failed_at ELSE EXCLUDED.first_failed_at END,
      last_error = EXCLUDED.last_error, last_failed_at = EXCLUDED.last_failed_at, resolved_at = NULL`;
}

/** The invoice evaluated again: an open review of it is resolved. */
export async function resolveInvoiceReviews(db: Db, invoiceIds: string[], now: Date): Promise<void> {
  if (invoiceIds.length === 0) return;
  await db.invoiceReview.updateMany({ where: { invoiceId: { in: invoiceIds }, resolvedAt: null }, data: { resolvedAt: now } });
}

/** How many invoices wait for review (for health reports and the ledger audit). */
export async function countOpenInvoiceReviews(db: Db): Promise<number> {
  return db.invoiceReview.count({ where: { resolvedAt: null } });
}
