import { withTransaction } from "@/lib/db/transaction";
import { logDrift, readReconciliation, recordReconciliation, type ReconcileDeps, type ReconcileOptions, type ReconciledAsset } from "@/lib/services/reconcile/reconcile-with-chains";

/**
 * The books against the chains (the `ledger.reconcile` job and `ledger reconcile`): the chains
 * are read outside any transaction, the results kept in one, and drift logged once they are.
 */
export async function reconcileWithChains(deps: ReconcileDeps, options: ReconcileOptions & { network?: string }): Promise<ReconciledAsset[]> {
  const { rows, networks } = await readReconciliation(deps, options);
  await withTransaction(deps.db, (tx) => recordReconciliation(tx, rows, networks, options.now));
  logDrift(rows);
  return rows;
}
