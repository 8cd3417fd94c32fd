import type { Db, Tx } from "@/lib/db/client";
import { PLATFORM } from "./postings";
import { withTransaction } from "@/lib/db/transaction";

/** Everything the audit found; every list empty is a clean ledger. */
export interface LedgerAudit {
  /** Accounts whose cached balance differs from the sum of their postings. */
  mismatched: { accountId: string; cached: bigint; fromPostings: bigint }[];
  /** Accounts on the wrong side of zero (a merchant bucket below, a debt above). */
  negative: string[];
  /** Journals whose postings do not sum to zero per asset. */
  unbalancedJournals: string[];
  /** Chain transfers whose posted credits do not match their state (credited once when confirmed, else nothing). */
  transfersVsCredits: string[];
  /** Invoices whose settled amount differs from their settlement journals less clawbacks. */
  settledVsJournals: string[];
  /** Merchant assets whose maturing balance differs from their unmatured lots. */
  lotsVsMaturing: string[];
  /** Outgoing transfers whose booked fee differs from the fee recorded on them (or booked while not final). */
  outgoingVsFees: string[];
  /** Merchant assets whose payout_held differs from the debits of their live payouts and the amounts of their funded payout links. */
  payoutsVsHeld: string[];
  /** Payouts whose journals do not match their status (reserved once; paid when confirmed; released when failed or cancelled; nothing else). */
  payoutsVsJournals: string[];
  /** Payouts with more than one transfer that may land or has landed, or confirmed without exactly one confirmed transfer of their amount. */
  payoutsVsTransfers: string[];
  /** Payments whose counted refunds exceed what they received. */
  refundsVsPaid: string[];
  /** Merchant assets whose split_held differs from the held amounts of their split shares. */
  splitsVsHeld: string[];
  /** Merchant assets whose blocked_held differs from the deposits their blocked static wallets hold with no refund bound to them. */
  blockedVsHeld: string[];
  /** Transfers to cold storage whose move is not booked exactly once, for their amount, when confirmed (and never otherwise). */
  coldVsTransfers: string[];
}

export const CLEAN_LEDGER_AUDIT: LedgerAudit = {
  mismatched: [],
  negative: [],
  unbalancedJournals: [],
  transfersVsCredits: [],
  settledVsJournals: [],
  lotsVsMaturing: [],
  outgoingVsFees: [],
  payoutsVsHeld: [],
  payoutsVsJournals: [],
  payoutsVsTransfers: [],
  refundsVsPaid: [],
  splitsVsHeld: [],
  blockedVsHeld: [],
  coldVsTransfers: [],
};

export function isCleanAudit(audit: LedgerAudit): boolean {
  return Object.values(audit).every((found) => found.length === 0);
}

/**
 * The books checked against themselves and against the state they pay for, in one snapshot
 * (repeatable read), so that work committing meanwhile cannot look like drift: every journal
 * balances, every cached balance is the sum of its postings, no bucket is on the wrong side of
 * zero, each chain transfer's credits match its state, each invoice's settled amount matches its
 * settlement journals, maturing balances match unmatured lots, every outgoing transfer's fee
 * is booked once, as recorded, blocked_held is what blocked static wallets hold, and each move to
 * cold storage is booked once, when confirmed.
 */
export async function auditLedger(db: Db): Promise<LedgerAudit> {
  return withTransaction(db, (tx) => auditLedgerIn(tx), { isolationLevel: "RepeatableRead" });
}

/** The audit's checks inside the caller's transaction (which fixes the snapshot they see). */
export async function auditLedgerIn(tx: Tx): Promise<LedgerAudit> {
      const mismatched = await tx.$queryRaw<{ account_id: string; cached: string; from_postings: string }[]>`
        SELECT a.id::text AS account_id, a.balance::text AS cached, COALESCE(SUM(p.amount), 0)::text AS from_postings
        FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.account_id = a.id
        GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(SUM(p.amount), 0)`;
      // Below zero only where mayGoNegative allows it; a merchant's debt never above zero.
      const negative = await tx.$queryRaw<{ id: string }[]>`
        SELECT id::text AS id FROM ledger_accounts
        WHERE (balance < 0 AND NOT (owner = ${PLATFORM} AND bucket IN ('chain', 'network_fees', 'conversions', 'cold')) AND NOT (owner <> ${PLATFORM} AND bucket = 'debt'))
           OR (balance > 0 AND bucket = 'debt')`;
      const unbalanced = await tx.$queryRaw<{ reference: string }[]>`
        SELECT j.reference FROM ledger_journals j JOIN ledger_postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
        GROUP BY j.reference, a.asset HAVING SUM(p.amount) <> 0`;
      // What a transfer's credits and their reversals took from the outside world (the platform's
      // chain account): its amount while it is credited, nothing otherwise; one credit per number.
      const transfers = await tx.$queryRaw<{ id: string }[]>`
        SELECT t.id::text AS id FROM chain_transfers t
        LEFT JOIN (
          SELECT substring(j.reference FROM 10 FOR 36) AS transfer_id,
                 -SUM(p.amount) AS net,
                 COUNT(DISTINCT j.reference) FILTER (WHERE j.reference NOT LIKE '%:reversed') AS credits
          FROM ledger_journals j JOIN ledger_postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
          WHERE (j.reference LIKE 'transfer:%:credit:%' OR j.reference LIKE 'transfer:%:confirmed:%') AND a.owner = ${PLATFORM} AND a.bucket = 'chain'
          GROUP BY 1
        ) c ON c.transfer_id = t.id::text
        WHERE (t.invoice_id IS NOT NULL OR t.static_wallet_id IS NOT NULL)
          AND (COALESCE(c.net, 0) <> CASE WHEN t.status = 'confirmed' THEN t.amount_minor ELSE 0 END
               OR COALESCE(c.credits, 0) < t.credits)`;
      // Received by settlements (out of incoming) less what clawbacks returned to incoming.
      const settled = await tx.$queryRaw<{ id: string }[]>`
        SELECT i.id::text AS id FROM invoices i
        LEFT JOIN (
          SELECT substring(j.reference FROM 9 FOR 36) AS invoice_id, -SUM(p.amount) AS settled
          FROM ledger_journals j JOIN ledger_postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
          WHERE (j.reference LIKE 'invoice:%:settle:%' OR j.reference LIKE 'invoice:%:clawback:%') AND a.bucket = 'incoming'
          GROUP BY 1
        ) s ON s.invoice_id = i.id::text
        WHERE i.settled_minor <> COALESCE(s.settled, 0)`;
      const lots = await tx.$queryRaw<{ key: string }[]>`
        SELECT COALESCE(l.merchant_id::text, a.owner) || '|' || COALESCE(l.asset, a.asset) AS key
        FROM (SELECT merchant_id, asset, SUM(amount) AS total FROM maturity_lots WHERE matured_at IS NULL GROUP BY merchant_id, asset) l
        FULL OUTER JOIN (SELECT owner, asset, balance FROM ledger_accounts WHERE bucket = 'maturing' AND owner <> ${PLATFORM}) a
          ON a.owner = l.merchant_id::text AND a.asset = l.asset
        WHERE COALESCE(l.total, 0) <> COALESCE(a.balance, 0)`;
      const fees = await tx.$queryRaw<{ id: string }[]>`
        SELECT o.id::text AS id FROM outgoing_transfers o
        LEFT JOIN (
          SELECT substring(j.reference FROM 10 FOR 36) AS transfer_id, SUM(p.amount) AS fee, COUNT(DISTINCT j.id) AS journals
          FROM ledger_journals j JOIN ledger_postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
          WHERE j.reference LIKE 'outgoing:%:fee' AND a.owner = ${PLATFORM} AND a.bucket = 'chain'
          GROUP BY 1
        ) f ON f.transfer_id = o.id::text
        WHERE (o.status = 'confirmed' AND COALESCE(f.fee, 0) <> COALESCE(o.fee_minor, 0))
           OR (o.status NOT IN ('confirmed', 'failed') AND f.journals IS NOT NULL)
           OR COALESCE(f.journals, 0) > 1`;
      const held = await tx.$queryRaw<{ key: string }[]>`
        SELECT COALESCE(p.merchant_id::text, a.owner) || '|' || COALESCE(p.asset, a.asset) AS key
        FROM (SELECT merchant_id, asset, SUM(total) AS total FROM (
                SELECT merchant_id, currency || ':' || network AS asset, debit_minor AS total FROM payouts
                WHERE status IN ('pending', 'approved', 'broadcasting', 'sent')
                UNION ALL
                SELECT merchant_id, currency || ':' || network, amount_minor FROM payout_links WHERE status IN ('funded', 'claiming')
              ) held GROUP BY 1, 2) p
        FULL OUTER JOIN (SELECT owner, asset, balance FROM ledger_accounts WHERE bucket = 'payout_held' AND owner <> ${PLATFORM}) a
          ON a.owner = p.merchant_id::text AND a.asset = p.asset
        WHERE COALESCE(p.total, 0) <> COALESCE(a.balance, 0)`;
      const payoutJournals = await tx.$queryRaw<{ id: string }[]>`
        SELECT p.id::text AS id FROM payouts p
        LEFT JOIN (
          SELECT substring(reference FROM 8 FOR 36) AS payout_id,
                 COUNT(*) FILTER (WHERE reference LIKE '%:reserve') AS reserved,
                 COUNT(*) FILTER (WHERE reference LIKE '%:paid') AS paid,
                 COUNT(*) FILTER (WHERE reference LIKE '%:release') AS released
          FROM ledger_journals WHERE reference LIKE 'payout:%' GROUP BY 1
        ) j ON j.payout_id = p.id::text
        WHERE COALESCE(j.reserved, 0) <> 1
           OR COALESCE(j.paid, 0) <> CASE WHEN p.status = 'confirmed' THEN 1 ELSE 0 END
           OR COALESCE(j.released, 0) <> CASE WHEN p.status IN ('failed', 'cancelled') THEN 1 ELSE 0 END`;
      const payoutTransfers = await tx.$queryRaw<{ id: string }[]>`
        SELECT p.id::text AS id FROM payouts p
        LEFT JOIN (
          SELECT substring(reference FROM 8 FOR 36) AS payout_id,
                 COUNT(*) FILTER (WHERE status IN ('signed', 'broadcast', 'seen', 'confirmed')) AS live,
                 COUNT(*) FILTER (WHERE status = 'confirmed') AS confirmed,
                 MIN(amount_minor) FILTER (WHERE status = 'confirmed') AS confirmed_amount
          FROM outgoing_transfers WHERE reference LIKE 'payout:%' GROUP BY 1
        ) t ON t.payout_id = p.id::text
        WHERE COALESCE(t.live, 0) > 1
           OR (p.status = 'confirmed' AND (COALESCE(t.confirmed, 0) <> 1 OR t.confirmed_amount <> p.amount_minor))
           OR (p.status IN ('pending', 'failed', 'cancelled') AND COALESCE(t.confirmed, 0) > 0)`;
      const refunds = await tx.$queryRaw<{ id: string }[]>`
        SELECT i.id::text AS id FROM invoices i
        JOIN (SELECT invoice_id, SUM(requested_amount::numeric) AS refunded FROM payouts
              WHERE kind = 'refund' AND status NOT IN ('failed', 'cancelled') GROUP BY invoice_id) r ON r.invoice_id = i.id
        WHERE r.refunded > i.amount_paid_minor`;
      const splits = await tx.$queryRaw<{ key: string }[]>`
        SELECT COALESCE(s.merchant_id::text, a.owner) || '|' || COALESCE(s.asset, a.asset) AS key
        FROM (SELECT merchant_id, asset, SUM(held_minor) AS total FROM split_shares GROUP BY 1, 2) s
        FULL OUTER JOIN (SELECT owner, asset, balance FROM ledger_accounts WHERE bucket = 'split_held') a
          ON a.owner = s.merchant_id::text AND a.asset = s.asset
        WHERE COALESCE(s.total, 0) <> COALESCE(a.balance, 0)`;
      const blocked = await tx.$queryRaw<{ key: string }[]>`
        SELECT COALESCE(h.merchant_id::text, a.owner) || '|' || COALESCE(h.asset, a.asset) AS key
        FROM (SELECT w.merchant_id, w.currency || ':' || w.network AS asset, SUM(t.amount_minor) AS total
              FROM chain_transfers t JOIN static_wallets w ON w.id = t.static_wallet_id
              WHERE t.status = 'confirmed' AND t.is_held AND t.refund_payout_id IS NULL GROUP BY 1, 2) h
        FULL OUTER JOIN (SELECT owner, asset, balance FROM ledger_accounts WHERE bucket = 'blocked_held') a
          ON a.owner = h.merchant_id::text AND a.asset = h.asset
        WHERE COALESCE(h.total, 0) <> COALESCE(a.balance, 0)`;
      // What each transfer to cold storage moved out of the chain account: its amount, once, when confirmed.
      const cold = await tx.$queryRaw<{ id: string }[]>`
        SELECT COALESCE(o.id::text, m.transfer_id) AS id
        FROM (SELECT id, status, amount_minor FROM outgoing_transfers WHERE kind = 'cold') o
        FULL OUTER JOIN (
          SELECT substring(j.reference FROM 10 FOR 36) AS transfer_id, SUM(p.amount) AS moved, COUNT(DISTINCT j.id) AS journals
          FROM ledger_journals j JOIN ledger_postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
          WHERE j.reference LIKE 'outgoing:%:cold' AND a.owner = ${PLATFORM} AND a.bucket = 'chain'
          GROUP BY 1
        ) m ON m.transfer_id = o.id::text
        WHERE o.id IS NULL
           OR COALESCE(m.journals, 0) <> CASE WHEN o.status = 'confirmed' THEN 1 ELSE 0 END
           OR (o.status = 'confirmed' AND m.moved <> o.amount_minor)`;
      return {
        mismatched: mismatched.map((row) => ({ accountId: row.account_id, cached: BigInt(row.cached), fromPostings: BigInt(row.from_postings) })),
        negative: negative.map((row) => row.id),
        unbalancedJournals: unbalanced.map((row) => row.reference),
        transfersVsCredits: transfers.map((row) => row.id),
        settledVsJournals: settled.map((row) => row.id),
        lotsVsMaturing: lots.map((row) => row.key),
        outgoingVsFees: fees.map((row) => row.id),
        payoutsVsHeld: held.map((row) => row.key),
        payoutsVsJournals: payoutJournals.map((row) => row.id),
        payoutsVsTransfers: payoutTransfers.map((row) => row.id),
        refundsVsPaid: refunds.map((row) => row.id),
        splitsVsHeld: splits.map((row) => row.key),
        blockedVsHeld: blocked.map((row) => row.key),
        coldVsTransfers: cold.map((row) => row.id),
      };
}
