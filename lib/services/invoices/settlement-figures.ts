import type { Invoice } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { formatAmount } from "@/lib/domain/money/amount";
import { settlementDecimals, toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { PLATFORM } from "@/lib/ledger/postings";

/** What the ledger settled for one invoice, in the coin paid, as decimal strings. */
export interface SettlementFigures {
  /** The platform fee the settlement journals took, less what clawbacks gave back. */
  fee: string;
  /** What was settled less that fee: the merchant's part (partners' split shares come out of it). */
  net: string;
}

type SettledInvoice = Pick<Invoice, "id" | "settlements" | "payerCurrency" | "network">;

/**
 * The fee and the net of each invoice that was settled at least once, read from its ledger
 * journals (`invoice:<id>:settle:<n>` and `invoice:<id>:clawback:<transfer>:<n>`), so the figures
 * are the ledger's own. Invoices never settled are absent from the map.
 */
export async function loadSettlementFigures(db: AppDeps["db"], invoices: readonly SettledInvoice[]): Promise<Map<string, SettlementFigures>> {
  const settled = invoices.filter((invoice) => invoice.settlements > 0 && settlementDecimals(invoice));
  if (settled.length === 0) return new Map();
  const transfers = await db.chainTransfer.findMany({
    where: { invoiceId: { in: settled.map((invoice) => invoice.id) }, credits: { gt: 0 } },
    select: { id: true, invoiceId: true, credits: true },
  });
  const owners = new Map<string, string>();
  for (const invoice of settled) {
    for (let settlement = 0; settlement < invoice.settlements; settlement++) owners.set(`invoice:${invoice.id}:settle:${settlement}`, invoice.id);
  }
  for (const transfer of transfers) {
    for (let credit = 1; credit <= transfer.credits; credit++) owners.set(`invoice:${transfer.invoiceId}:clawback:${transfer.id}:${credit}`, transfer.invoiceId!);
  }
  const postings = await db.ledgerPosting.findMany({
    where: { journal: { reference: { in: [...owners.keys()] } } },
    select: { amount: true, journal: { select: { reference: true } }, account: { select: { owner: true, bucket: true } } },
  });
  const sums = new Map<string, { received: bigint; fee: bigint }>();
  for (const posting of postings) {
    const invoiceId = owners.get(posting.journal.reference)!;
    const sum = sums.get(invoiceId) ?? { received: 0n, fee: 0n };
    const amount = toMinor(posting.amount);
    // A settlement empties incoming (negative) and a clawback refills it: received is its opposite.
    if (posting.account.owner !== PLATFORM && posting.account.bucket === "incoming") sum.received -= amount;
    if (posting.account.owner === PLATFORM && posting.account.bucket === "fees") sum.fee += amount;
    sums.set(invoiceId, sum);
  }
  const figures = new Map<string, SettlementFigures>();
  for (const invoice of settled) {
    const sum = sums.get(invoice.id) ?? { received: 0n, fee: 0n };
    const decimals = settlementDecimals(invoice)!.onChain;
    figures.set(invoice.id, { fee: formatAmount(sum.fee, decimals), net: formatAmount(sum.received - sum.fee, decimals) });
  }
  return figures;
}
