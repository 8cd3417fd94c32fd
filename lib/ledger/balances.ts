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
