import type { Tx } from "@/lib/db/client";
import { postJournal } from "./post";
import { debtRepaymentJournal } from "./postings";

/**
 * Pays back what a merchant owes in one asset from its available funds, as far as they reach,
 * inside the caller's transaction (which just made funds available). The two accounts are locked
 * in the ledger's own order, so this never deadlocks with a posting to them.
 * @param reference unique per repayment, e.g. `lot:<id>:debt`.
 */
export async function repayDebtFromAvailable(tx: Tx, input: { merchantId: string; asset: string; reference: string }, now: Date): Promise<bigint> {
  const rows = await tx.$queryRaw<{ bucket: string; balance: string }[]>`
    SELECT bucket, balance::text AS balance FROM ledger_accounts
    WHERE owner = ${input.merchantId} AND asset = ${input.asset} AND bucket IN ('available', 'debt')
    ORDER BY bucket FOR UPDATE`;
  const balanceOf = (bucket: string) => BigInt(rows.find((row) => row.bucket === bucket)?.balance ?? "0");
  const owed = -balanceOf("debt");
  const available = balanceOf("available");
  const amount = owed < available ? owed : available;
  if (amount <= 0n) return 0n;
  await postJournal(tx, debtRepaymentJournal({ ...input, amount }), now);
  return amount;
}
