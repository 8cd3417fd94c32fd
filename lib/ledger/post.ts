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
  await postJournals(tx, [journal], now);
}

/**
 * Several journals at once (a chunk of a payout batch), with the same guarantees as postJournal
 * each: every journal balances and is recorded under its unique reference. Each account is
 * updated once, by the sum of its postings across the journals, and judged on the balance that
 * commits — a transaction's intermediate sums are visible to no one.
 */
export async function postJournals(tx: Tx, journals: readonly Journal[], now: Date): Promise<void> {
  if (journals.length === 0) return;
  for (const journal of journals) if (!isBalanced(journal)) throw new LedgerError(`journal ${journal.reference} does not balance`);
  const journalIds = journals.map(() => randomUUID());
  const inserted = await tx.ledgerJournal.createMany({
    data: journals.map((journal, index) => ({ id: journalIds[index], reference: journal.reference, kind: journal.kind, createdAt: now })),
    skipDuplicates: true,
  });
  if (inserted.count !== journals.length) {
    throw new LedgerError(journals.length === 1 ? `journal ${journals[0].reference} is already posted` : `${journals.length - inserted.count} of ${journals.length} journals are already posted`);
  }
  const totals = new Map<string, { account: AccountKey; amount: bigint }>();
  for (const journal of journals) {
    for (const posting of journal.postings) {
      const key = accountOrder(posting.account);
      const total = totals.get(key) ?? { account: posting.account, amount: 0n };
      total.amount += posting.amount;
      totals.set(key, total);
    }
  }
  // Accounts in a fixed order, so two transactions touching the same accounts cannot deadlock.
  const accountIds = new Map<string, string>();
  for (const key of [...totals.keys()].sort((a, b) => a.localeCompare(b))) {
    const { account, amount } = totals.get(key)!;
    const updated = await applyToAccount(tx, account, amount, now);
    if (updated.balance < 0n && !mayGoNegative(account)) {
      throw new LedgerError(`${describe(journals)} would make ${key} negative`);
    }
    if (updated.balance > 0n && account.bucket === "debt") throw new LedgerError(`${describe(journals)} would repay more debt than is owed`);
    accountIds.set(key, updated.id);
  }
  const rows = journals.flatMap((journal, index) =>
    journal.postings.map((posting) => ({ id: randomUUID(), journalId: journalIds[index], accountId: accountIds.get(accountOrder(posting.account))!, amount: posting.amount.toString(), createdAt: now })),
  );
  await tx.ledgerPosting.createMany({ data: rows });
}

function describe(journals: readonly Journal[]): string {
  return journals.length === 1 ? `journal ${journals[0].reference}` : `journals ${journals[0].reference} … (${journals.length})`;
}

/**
 * Adds `amount` to an account's cached balance in one statement (updated, and so locked); a new
 * account is created at zero first — the sign CHECK judges the row proposed for insertion, so
 * the amount is added by the update, never inserted.
 */
async function applyToAccount(tx: Tx, account: AccountKey, amount: bigint, now: Date): Promise<{ id: string; balance: bigint }> {
  const text = amount.toString();
  let [updated] = await tx.$queryRaw<{ id: string; balance: string; is_new: boolean }[]>`
    INSERT INTO ledger_accounts (id, owner, asset, bucket, balance, created_at, updated_at)
    VALUES (${randomUUID()}::uuid, ${account.owner}, ${account.asset}, ${account.bucket}, 0, ${now}, ${now})
    ON CONFLICT (owner, asset, bucket) DO UPDATE SET balance = ledger_accounts.balance + ${text}::numeric, updated_at = ${now}
    RETURNING id::text AS id, balance::text AS balance, (xmax = 0) AS is_new`;
  if (updated.is_new) {
    [updated] = await tx.$queryRaw<{ id: string; balance: string; is_new: boolean }[]>`
      UPDATE ledger_accounts SET balance = balance + ${text}::numeric WHERE id = ${updated.id}::uuid
      RETURNING id::text AS id, balance::text AS balance, false AS is_new`;
  }
  return { id: updated.id, balance: BigInt(updated.balance) };
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
