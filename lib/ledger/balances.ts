import type { Db, Tx } from "@/lib/db/client";
import type { Bucket } from "./postings";

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

/** What a merchant may spend in one asset, and what stands in the way. */
export interface SpendableBalance {
  available: bigint;
  maturing: bigint;
  /** Zero or below. */
  debt: bigint;
}

/**
 * Locks a merchant's available, debt and maturing accounts of one asset (in the ledger's own
 * account order, so it never deadlocks with a posting) and reads them: until the caller's
 * transaction ends, nothing else spends or credits them.
 */
export async function lockSpendableBalance(tx: Tx, merchantId: string, asset: string): Promise<SpendableBalance> {
  const rows = await tx.$queryRaw<{ bucket: string; balance: string }[]>`
    SELECT bucket, balance::text AS balance FROM ledger_accounts
    WHERE owner = ${merchantId} AND asset = ${asset} AND bucket IN ('available', 'debt', 'maturing')
    ORDER BY bucket FOR UPDATE`;
  const balanceOf = (bucket: string) => BigInt(rows.find((row) => row.bucket === bucket)?.balance ?? "0");
  return { available: balanceOf("available"), maturing: balanceOf("maturing"), debt: balanceOf("debt") };
}
