import type { Db, Tx } from "@/lib/db/client";
import { PLATFORM, type Bucket } from "./postings";

export interface BalanceRow {
  owner: string;
  asset: string;
  bucket: Bucket;
  /** Minor units. */
  balance: bigint;
}

/** A merchant's cached balances per asset and bucket (non-zero ones). */
export async function listMerchantBalances(db: Db | Tx, merchantId: string): Promise<BalanceRow[]> {
  const rows = await db.ledgerAccount.findMany({ where: { owner: merchantId, NOT: { balance: 0 } }, orderBy: [{ asset: "asc" }, { bucket: "asc" }] });
  return rows.map((row) => ({ owner: row.owner, asset: row.asset, bucket: row.bucket as Bucket, balance: BigInt(row.balance.toFixed()) }));
}

export interface LedgerDiscrepancy {
  accountId: string;
  cached: bigint;
  fromPostings: bigint;
}

/**
 * Recomputes every account's balance from its postings and lists those whose cached balance
 * differs, plus any merchant account below zero. An empty answer is the ledger's invariant.
 */
export async function auditLedger(db: Db): Promise<{ mismatched: LedgerDiscrepancy[]; negative: string[]; unbalancedJournals: string[] }> {
  const mismatched = await db.$queryRaw<{ account_id: string; cached: string; from_postings: string }[]>`
    SELECT a.id::text AS account_id, a.balance::text AS cached, COALESCE(SUM(p.amount), 0)::text AS from_postings
    FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.account_id = a.id
    GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(SUM(p.amount), 0)`;
  const negative = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM ledger_accounts WHERE balance < 0 AND NOT (owner = ${PLATFORM} AND bucket IN ('chain', 'network_fees'))`;
  const unbalanced = await db.$queryRaw<{ reference: string }[]>`
    SELECT j.reference FROM ledger_journals j JOIN ledger_postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
    GROUP BY j.reference, a.asset HAVING SUM(p.amount) <> 0`;
  return {
    mismatched: mismatched.map((row) => ({ accountId: row.account_id, cached: BigInt(row.cached), fromPostings: BigInt(row.from_postings) })),
    negative: negative.map((row) => row.id),
    unbalancedJournals: unbalanced.map((row) => row.reference),
  };
}
