import { withTransaction } from "@/lib/db/transaction";
import { evaluateInvoice, evaluationDepsOf } from "@/lib/services/deposits/evaluate-invoice";
import type { WatcherDeps } from "./scan-networks";

/** The expiry job: every live invoice whose term has passed is evaluated (cancel, wrong_amount). */
export async function expireDueInvoices(deps: WatcherDeps, limit = 200): Promise<{ expired: number }> {
  const now = deps.now();
  // By status (indexed with expires_at) rather than is_final, so the sweep stays an index scan.
  const due = await deps.db.invoice.findMany({
    // confirm_check waits for its transfer (the watcher evaluates it every pass), so it is not
    // swept: many of them must not crowd out the invoices that really expire.
    where: { status: { in: ["select", "check", "wrong_amount_waiting"] }, expiresAt: { lte: now } },
    select: { id: true },
    take: limit,
    orderBy: { expiresAt: "asc" },
  });
  let expired = 0;
  for (const { id } of due) {
    const result = await withTransaction(deps.db, (tx) => evaluateInvoice(tx, evaluationDepsOf(deps.config), id, now));
    if (result.changed) expired++;
  }
  return { expired };
}
