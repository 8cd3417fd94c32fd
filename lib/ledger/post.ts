import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { isBalanced, mayGoNegative, type AccountKey, type Journal } from "./postings";

export class LedgerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LedgerError";
  }
}

/**
 * The only writer of the ledger. Inside the caller's transaction: checks the journal balances,
 * records it under its unique reference, applies each posting to its account's cached balance,
 * and refuses any balance that would go negative (or a debt above zero). A reference that is
 * already posted is an error, never a silent skip: every caller guards its event with a state
 * change in the same transaction, so a second posting means that guard failed.
 */
export async function postJournal(tx: Tx, journal: Journal, now: Date): Promise<void> {
  if (!isBalanced(journal)) throw new LedgerError(`journal ${journal.reference} does not balance`);
  const journalId = randomUUID();
  const inserted = await tx.ledgerJournal.createMany({
    data: [{ id: journalId, reference: journal.reference, kind: journal.kind, createdAt: now }],
    skipDuplicates: true,
  });
  if (inserted.count === 0) throw new LedgerError(`journal ${journal.reference} is already posted`);
  // Lock accounts in a fixed order so two journals touching the same accounts cannot deadlock.
  const postings = [...journal.postings].sort((a, b) => accountOrder(a.account).localeCompare(accountOrder(b.account)));
  const rows: { id: string; journalId: string; accountId: string; amount: string; createdAt: Date }[] = [];
  for (const posting of postings) {
    // One statement per posting to an existing account (updated, and so locked); a new account is
    // created at zero first (the sign CHECK judges the row proposed for insertion, so the amount
    // is added by the update, never inserted).
    const amount = posting.amount.toString();
    let [updated] = await tx.$queryRaw<{ id: string; balance: string; is_new: boolean }[]>`
      INSERT INTO ledger_accounts (id, owner, asset, bucket, balance, created_at, updated_at)
      VALUES (${randomUUID()}::uuid, ${posting.account.owner}, ${posting.account.asset}, ${posting.account.bucket}, 0, ${now}, ${now})
      ON CONFLICT (owner, asset, bucket) DO UPDATE SET balance = ledger_accounts.balance + ${amount}::numeric, updated_at = ${now}
      RETURNING id::text AS id, balance::text AS balance, (xmax = 0) AS is_new`;
    if (updated.is_new) {
      [updated] = await tx.$queryRaw<{ id: string; balance: string; is_new: boolean }[]>`
        UPDATE ledger_accounts SET balance = balance + ${amount}::numeric WHERE id = ${updated.id}::uuid
        RETURNING id::text AS id, balance::text AS balance, false AS is_new`;
    }
    const balance = BigInt(updated.balance);
    if (balance < 0n && !mayGoNegative(posting.account)) {
      throw new LedgerError(`journal ${journal.reference} would make ${accountOrder(posting.account)} negative`);
    }
    if (balance > 0n && posting.account.bucket === "debt") throw new LedgerError(`journal ${journal.reference} would repay more debt than is owed`);
    rows.push({ id: randomUUID(), journalId, accountId: updated.id, amount: posting.amount.toString(), createdAt: now });
  }
  await tx.ledgerPosting.createMany({ data: rows });
}

/**
 * Locks accounts in the ledger's one order (the order postJournal locks a journal's accounts
 * in; a merchant's before the platform's), creating missing ones. A transaction that posts
 * several journals calls this first with every account they touch: taking the locks journal by
 * journal would take them out of that order, and two such transactions could deadlock.
 */
export async function lockAccounts(tx: Tx, accounts: readonly AccountKey[], now: Date): Promise<void> {
  const byOrder = new Map(accounts.map((account) => [accountOrder(account), account]));
  for (const key of [...byOrder.keys()].sort((a, b) => a.localeCompare(b))) {
    const accountId = await ensureAccount(tx, byOrder.get(key)!, now);
    await tx.$queryRaw`SELECT id FROM ledger_accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
  }
}

function accountOrder(account: AccountKey): string {
  return `${account.owner}|${account.asset}|${account.bucket}`;
}

async function ensureAccount(tx: Tx, account: AccountKey, now: Date): Promise<string> {
  await tx.ledgerAccount.createMany({
    data: [{ id: randomUUID(), owner: account.owner, asset: account.asset, bucket: account.bucket, createdAt: now, updatedAt: now }],
    skipDuplicates: true,
  });
  const row = await tx.ledgerAccount.findUniqueOrThrow({
    where: { owner_asset_bucket: { owner: account.owner, asset: account.asset, bucket: account.bucket } },
    select: { id: true },
  });
  return row.id;
}
