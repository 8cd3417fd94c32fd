import type { Db } from "@/lib/db/client";
import { auditLedger, type LedgerAudit } from "@/lib/ledger/audit";
import { toWholeUnits } from "./read-table-state";

/** The ledger audit as gauges: how much each check found, and by how much cached balances drifted. */
export interface LedgerAuditState {
  ranAt: Date;
  /** Findings per audit check (`mismatched`, `payoutsVsHeld`, …); every check is listed, 0 when clean. */
  findings: { check: keyof LedgerAudit; count: number }[];
  /**
   * Per asset, the sum of |cached balance − sum of postings| over its drifting accounts, in
   * whole units; assets without drift are absent.
   */
  driftByAsset: Map<string, number>;
}

/** Runs the ledger audit (the checks of `gateway ledger audit`) and summarises it per check and per asset. */
export async function readLedgerAudit(db: Db, now: () => Date): Promise<LedgerAuditState> {
  const audit = await auditLedger(db);
  const ranAt = now();
  const findings = (Object.keys(audit) as (keyof LedgerAudit)[]).map((check) => ({ check, count: audit[check].length }));
  const driftByAsset = new Map<string, number>();
  if (audit.mismatched.length > 0) {
    const accounts = await db.ledgerAccount.findMany({ where: { id: { in: audit.mismatched.map((row) => row.accountId) } }, select: { id: true, asset: true } });
    const assetOf = new Map(accounts.map((account) => [account.id, account.asset]));
    const driftMinor = new Map<string, bigint>();
    for (const row of audit.mismatched) {
      const asset = assetOf.get(row.accountId);
      if (!asset) continue;
      const difference = row.cached - row.fromPostings;
      driftMinor.set(asset, (driftMinor.get(asset) ?? 0n) + (difference < 0n ? -difference : difference));
    }
    for (const [asset, minor] of driftMinor) driftByAsset.set(asset, toWholeUnits(asset, minor));
  }
  return { ranAt, findings, driftByAsset };
}
