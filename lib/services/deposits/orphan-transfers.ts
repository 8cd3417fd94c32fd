import type { Tx } from "@/lib/db/client";
import { platformFeeMinor } from "@/lib/domain/invoice/quote";
import { postJournal } from "@/lib/ledger/post";
import { assetKey, depositConfirmedJournal, PLATFORM, reversalJournal, settlementClawbackJournal } from "@/lib/ledger/postings";
import { evaluateInvoice, type EvaluationDeps } from "@/lib/services/deposits/evaluate-invoice";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { moveSplitShares } from "@/lib/services/splits/split-shares";

/**
 * A reorganisation (or the mempool) dropped these transfers of one invoice. Inside the caller's
 * transaction, every credit they caused is reversed — always, whatever the merchant still holds:
 *
 * - only the orphaned transfers' share of the invoice's settlement is taken back (what was
 *   settled beyond what is still confirmed), with the platform fee recomputed on what remains;
 *   the merchant's part comes from the invoice's own maturing lots first, then from available,
 *   and what the merchant no longer has becomes debt (which blocks payouts until covered);
 * - each orphaned credit is reversed under its own number (`transfer:<id>:credit:<n>:reversed`),
 *   so a transfer included again later is credited once more, exactly once.
 *
 * The transfers are marked orphaned and the invoice is evaluated again from what is still on
 * chain: a paid invoice whose payment vanished is open again (or expired, or underpaid).
 */
export async function orphanInvoiceTransfers(tx: Tx, deps: EvaluationDeps, invoiceId: string, judged: readonly JudgedTransfer[], now: Date) {
  await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${invoiceId}::uuid FOR UPDATE`;
  const invoice = await tx.invoice.findUniqueOrThrow({ where: { id: invoiceId } });
  const transfers = await lockStillOrphaned(tx, judged, { invoiceId });
  const credited = transfers.filter((transfer) => transfer.status === "confirmed");
  const asset = invoice.payerCurrency && invoice.network ? assetKey(invoice.payerCurrency, invoice.network) : null;

  if (credited.length > 0 && asset) {
    const stillConfirmed = await tx.chainTransfer.aggregate({
      where: { invoiceId, status: "confirmed", currency: invoice.payerCurrency!, id: { notIn: credited.map((transfer) => transfer.id) } },
      _sum: { amountMinor: true },
    });
    const remaining = toMinor(stillConfirmed._sum.amountMinor);
    const settled = toMinor(invoice.settledMinor);
    if (settled > remaining) {
      const first = credited[0];
      await clawBackSettlement(tx, { invoice, asset, reference: `invoice:${invoiceId}:clawback:${first.id}:${first.credits}`, settled, settledAfter: remaining }, now);
    }
    for (const transfer of credited) {
      const credit = depositConfirmedJournal({ transferId: transfer.id, credit: transfer.credits, merchantId: invoice.merchantId, asset, amount: toMinor(transfer.amountMinor) });
      await postJournal(tx, reversalJournal(credit, "reorg"), now);
    }
    // Reopened, so the lifecycle is decided again from what is still on chain.
    await tx.invoice.update({
      where: { id: invoiceId },
      data: { status: invoice.payerCurrency ? "check" : "select", isFinal: false, settledMinor: (settled > remaining ? remaining : settled).toString(), updatedAt: now },
    });
  }
  await tx.chainTransfer.updateMany({ where: { id: { in: transfers.map((transfer) => transfer.id) } }, data: { status: "orphaned", confirmations: 0, updatedAt: now } });
  return evaluateInvoice(tx, deps, invoiceId, now);
}

/** A transfer the watcher judged gone, with the block hash it judged by (null: never mined). */
export interface JudgedTransfer {
  id: string;
  blockHash: string | null;
}

/**
 * The judged transfers that are still as they were judged, row-locked: not orphaned already and
 * still in the block that is gone. A concurrent pass may have seen one mined again meanwhile (a
 * new block hash): that one is left alone, or its credit would be reversed for good while it is
 * on chain. The watcher's own update of a transfer seen again takes the same row lock.
 */
export async function lockStillOrphaned(tx: Tx, judged: readonly JudgedTransfer[], owner: { invoiceId: string } | { staticWalletId: string }) {
  if (judged.length === 0) return [];
  await tx.$queryRaw`SELECT id FROM chain_transfers WHERE id = ANY(${judged.map((transfer) => transfer.id)}::uuid[]) ORDER BY id FOR UPDATE`;
  const rows = await tx.chainTransfer.findMany({ where: { id: { in: judged.map((transfer) => transfer.id) }, ...owner, status: { not: "orphaned" } } });
  const judgedHash = new Map(judged.map((transfer) => [transfer.id, transfer.blockHash]));
  return rows.filter((row) => row.blockHash === judgedHash.get(row.id));
}

/**
 * Takes `settled − settledAfter` of an invoice's settlement back into incoming. The platform keeps
 * the fee of what stays settled (as if settled at once) and returns the rest of what it took.
 */
async function clawBackSettlement(
  tx: Tx,
  input: {
    invoice: { id: string; merchantId: string; feePercentBps: number; feeFixedAssetMinor: { toFixed(): string } | null };
    asset: string;
    reference: string;
    settled: bigint;
    settledAfter: bigint;
  },
  now: Date,
): Promise<void> {
  const { invoice, asset } = input;
  const received = input.settled - input.settledAfter;
  const feeTaken = await sumInvoiceFees(tx, invoice.id, asset);
  const feeKept = input.settledAfter === 0n ? 0n : platformFeeMinor(input.settledAfter, invoice.feePercentBps, toMinor(invoice.feeFixedAssetMinor));
  const feeReturned = clamp(feeTaken - feeKept, 0n, received);
  const share = received - feeReturned;

  // The invoice's own funds still maturing go first (their lots shrink), then available.
  // Locked, and re-read after any wait: a lot the maturity job made available meanwhile is no
  // longer maturing, and its share comes from available instead.
  const lockLots = () => tx.$queryRaw<{ id: string; amount: string }[]>`
    SELECT id::text AS id, amount::text AS amount FROM maturity_lots
    WHERE merchant_id = ${invoice.merchantId}::uuid AND asset = ${asset} AND matured_at IS NULL AND reference LIKE ${`invoice:${invoice.id}:settle:%`}
    ORDER BY created_at DESC FOR UPDATE`;
  await lockLots();
  // Partners' split shares of what vanished are taken back first (into the merchant's maturing or
  // available, from a partner it was released to), so the merchant's part below covers the whole.
  // After the lots' locks, as the maturity job takes a lot's lock before the merchant's accounts;
  // the lots are read again after it, as it may have grown one.
  await moveSplitShares(tx, { invoiceId: invoice.id, creditedDelta: -share, funding: { kind: "available" } }, now);
  const lots = await lockLots();
  let fromMaturing = 0n;
  for (const lot of lots) {
    const take = clamp(share - fromMaturing, 0n, BigInt(lot.amount));
    if (take === 0n) break;
    const left = BigInt(lot.amount) - take;
    // A lot clawed back to nothing is done: it has nothing left to mature.
    await tx.maturityLot.update({ where: { id: lot.id }, data: { amount: left.toString(), ...(left === 0n ? { maturedAt: now } : {}) } });
    fromMaturing += take;
  }
  const [available] = await tx.$queryRaw<{ balance: string }[]>`
    SELECT balance::text AS balance FROM ledger_accounts WHERE owner = ${invoice.merchantId} AND asset = ${asset} AND bucket = 'available' FOR UPDATE`;
  const fromAvailable = clamp(share - fromMaturing, 0n, BigInt(available?.balance ?? "0"));
  await postJournal(
    tx,
    settlementClawbackJournal({ reference: input.reference, merchantId: invoice.merchantId, asset, received, fee: feeReturned, taken: { maturing: fromMaturing, available: fromAvailable } }),
    now,
  );
}

/** What the platform holds of an invoice's fees: its settlements' fees less those already returned. */
async function sumInvoiceFees(tx: Tx, invoiceId: string, asset: string): Promise<bigint> {
  const [row] = await tx.$queryRaw<{ total: string | null }[]>`
    SELECT SUM(p.amount)::text AS total FROM ledger_postings p
    JOIN ledger_journals j ON j.id = p.journal_id JOIN ledger_accounts a ON a.id = p.account_id
    WHERE j.reference LIKE ${`invoice:${invoiceId}:%`} AND a.owner = ${PLATFORM} AND a.asset = ${asset} AND a.bucket = 'fees'`;
  return BigInt(row?.total ?? "0");
}

function clamp(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value;
}
