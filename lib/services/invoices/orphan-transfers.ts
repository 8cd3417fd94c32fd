import type { Tx } from "@/lib/db/client";
import { postJournal } from "@/lib/ledger/post";
import { assetKey, depositConfirmedJournal, reversalJournal, type Journal } from "@/lib/ledger/postings";
import { evaluateInvoice, type EvaluationDeps } from "./evaluate-invoice";
import { toMinor } from "./invoice-view";

/**
 * A reorganisation dropped the blocks holding these transfers of one invoice. Inside the
 * caller's transaction: every credit they caused is reversed — the invoice's settlements first
 * (back from maturing, or from available when the hold had ended, with the platform fee), then
 * the deposits themselves (back to the outside world) — the transfers are marked orphaned, and
 * the invoice is evaluated again from its remaining transfers: a paid invoice whose payment
 * vanished is open again (or expired, or underpaid), and the ledger says what really arrived.
 * A balance that cannot cover the reversal (funds already paid out) throws LedgerError; the
 * caller records the orphaning without the reversal and reports it for review.
 */
export async function orphanInvoiceTransfers(tx: Tx, deps: EvaluationDeps, invoiceId: string, transferIds: string[], now: Date) {
  await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${invoiceId}::uuid FOR UPDATE`;
  const invoice = await tx.invoice.findUniqueOrThrow({ where: { id: invoiceId } });
  const transfers = await tx.chainTransfer.findMany({ where: { id: { in: transferIds }, status: { not: "orphaned" } } });
  const credited = transfers.filter((transfer) => transfer.status === "confirmed");
  const asset = invoice.payerCurrency && invoice.network ? assetKey(invoice.payerCurrency, invoice.network) : null;

  if (credited.length > 0 && asset) {
    if (toMinor(invoice.settledMinor) > 0n) await reverseSettlements(tx, invoiceId, now);
    for (const transfer of credited) {
      const original = depositConfirmedJournal({
        transferId: transfer.id,
        blockHash: transfer.blockHash ?? "unknown-block",
        merchantId: invoice.merchantId,
        asset,
        amount: toMinor(transfer.amountMinor),
      });
      await postJournal(tx, reversalJournal(original, "reorg"), now);
    }
  }
  await tx.chainTransfer.updateMany({ where: { id: { in: transfers.map((transfer) => transfer.id) } }, data: { status: "orphaned", confirmations: 0, updatedAt: now } });
  if (credited.length > 0 && asset) {
    // Credits were reversed: reopen, so that the lifecycle is decided again from what is still on chain.
    await tx.invoice.update({
      where: { id: invoiceId },
      data: { status: invoice.payerCurrency ? "check" : "select", isFinal: false, settledMinor: "0", updatedAt: now },
    });
  }
  return evaluateInvoice(tx, deps, invoiceId, now);
}

/** Reverses every settlement of an invoice that is not reversed yet, and cancels its maturity. */
async function reverseSettlements(tx: Tx, invoiceId: string, now: Date): Promise<void> {
  const prefix = `invoice:${invoiceId}:settle:`;
  const journals = await tx.ledgerJournal.findMany({
    where: { reference: { startsWith: prefix } },
    include: { postings: { include: { account: true } } },
  });
  const reversed = new Set(journals.filter((journal) => journal.reference.endsWith(":reversed")).map((journal) => journal.reference.slice(0, -":reversed".length)));
  for (const journal of journals) {
    if (journal.reference.endsWith(":reversed") || reversed.has(journal.reference)) continue;
    const lot = await tx.maturityLot.findUnique({ where: { reference: journal.reference } });
    // A lot still maturing is cancelled; one that matured gives its amount back from available.
    const fromBucket = lot?.maturedAt && lot.maturedAt <= now ? "available" : "maturing";
    if (lot && fromBucket === "maturing") await tx.maturityLot.update({ where: { id: lot.id }, data: { maturedAt: now } });
    const original: Journal = {
      reference: journal.reference,
      kind: journal.kind,
      postings: journal.postings.map((posting) => ({
        account: {
          owner: posting.account.owner,
          asset: posting.account.asset,
          bucket: (posting.account.bucket === "maturing" ? fromBucket : posting.account.bucket) as Journal["postings"][number]["account"]["bucket"],
        },
        amount: toMinor(posting.amount),
      })),
    };
    await postJournal(tx, reversalJournal(original, "reorg"), now);
  }
}
