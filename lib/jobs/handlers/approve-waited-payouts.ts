import { withTransaction } from "@/lib/db/transaction";
import type { PayoutDeps } from "@/lib/services/money-out/payout-terms";
import { approveWaitedPayout, listWaitedPayouts } from "@/lib/services/payouts/manage-payouts";

/**
 * Periodic job: pending payouts whose waiting period ended are approved by the service, each in
 * its own transaction, unless a freeze holds money out (see approveWaitedPayout). Answers how many
 * were approved.
 */
export async function approveWaitedPayouts(deps: Pick<PayoutDeps, "db" | "config" | "now">, limit = 200): Promise<number> {
  const now = deps.now();
  let approved = 0;
  for (const payout of await listWaitedPayouts(deps.db, now, limit)) {
    if (await withTransaction(deps.db, (tx) => approveWaitedPayout(tx, deps, payout, now))) approved++;
  }
  return approved;
}
