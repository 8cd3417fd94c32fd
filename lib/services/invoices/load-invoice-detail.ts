import type { ChainTransfer, Invoice, Payout, WebhookDelivery } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { toPayment, type PaymentObject } from "@/lib/api/serialize/payment";
import { findNetwork, findSettlementAsset } from "@/lib/catalogue";
import { isFinalPaymentStatus, type PaymentStatus } from "@/lib/domain/invoice/status";
import { formatAmount } from "@/lib/domain/money/amount";
import type { CoarsePayoutStatus } from "@/lib/domain/payout/transition";
import type { DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";
import { describeInvoiceAmounts, settlementDecimals, toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { refundableMinor, refundSummary } from "@/lib/domain/refund/refundable";
import { describePayout, toRefundObject } from "@/lib/api/serialize/payout";
import { loadSettlementFigures, type SettlementFigures } from "@/lib/services/invoices/settlement-figures";

/** A transfer to the invoice's address that the network's watcher linked to it. */
export interface InvoiceTransfer {
  id: string;
  txid: string;
  /** Output index (UTXO) or log/instruction index: with txid, identifies the transfer. */
  position: number;
  network: string;
  /** The network's name for people, e.g. "BNB Smart Chain". */
  networkName: string;
  currency: string;
  /** Decimal string in the asset's on-chain units. */
  amount: string;
  /** Null where the chain does not tell (UTXO) or the watcher did not record it. */
  fromAddress: string | null;
  toAddress: string;
  confirmations: number;
  /** Null while in the mempool. */
  blockHeight: number | null;
  blockHash: string | null;
  /** seen (waiting for confirmations), confirmed (credited) or orphaned (its block left the chain). */
  status: "seen" | "confirmed" | "orphaned";
  /** When the watcher first recorded it. */
  seenAt: Date;
  /** When its latest credit was posted; null if never credited. */
  creditedAt: Date | null;
}

/** One webhook delivery of the invoice's events (to the endpoint or the url_callback). */
export interface InvoiceDelivery {
  id: string;
  eventType: string;
  /** endpoint (the registered URL) or callback (the invoice's url_callback). */
  target: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string;
  /** When the next attempt is due; null unless pending. */
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type InvoiceRefund = ReturnType<typeof toRefundObject>;

/** One dated fact of the invoice's life; see loadInvoiceDetail for where each comes from. */
export type TimelineEvent =
  | { kind: "created"; at: Date; amount: string; currency: string }
  | { kind: "transfer_seen"; at: Date; transferId: string; txid: string; amount: string; currency: string; network: string }
  /** Credit number `credit` of the transfer: it reached its confirmations (a re-inclusion after a reorganisation is the next number). */
  | { kind: "transfer_credited"; at: Date; transferId: string; txid: string; credit: number }
  /** Credit number `credit` was reversed: the transfer's block left the chain. */
  | { kind: "transfer_reversed"; at: Date; transferId: string; txid: string; credit: number }
  /** The settlement numbered `settlement` (0 first): the merchant was credited, net of the fee. */
  | { kind: "settled"; at: Date; settlement: number }
  /** What a settlement credited was taken back after a transfer's reversal. */
  | { kind: "settlement_clawed_back"; at: Date; transferId: string; txid: string }
  /** The invoice first became final, with the status it has now (cancel: it expired unpaid). */
  | { kind: "final"; at: Date; status: PaymentStatus }
  /** A webhook delivery's latest state: queued (at creation), delivered, retrying (last failed attempt) or dead. */
  | { kind: "webhook"; at: Date; outcome: "queued" | "delivered" | "retrying" | "dead"; deliveryId: string; eventType: string; target: string; attempts: number; lastStatusCode: number | null }
  | { kind: "refund_created"; at: Date; payoutId: string; amount: string; currency: string; status: CoarsePayoutStatus };

export interface InvoiceDetail {
  /** The API's payment object (POST /v1/payment/info without its refund fields, which follow). */
  payment: PaymentObject;
  refundStatus: "none" | "partial" | "full";
  /**
   * In the coin paid, as decimal strings; both "0" until the buyer has chosen a coin: what is left
   * to refund (received minus the refunds that count), and what arrived beyond the amount due.
   */
  leftToRefund: string;
  overpaid: string;
  /**
   * What transfers not yet confirmed carry (status `seen`), in the coin paid, as a decimal string:
   * on its way, not yet in `amount_paid`. "0" when nothing is confirming.
   */
  confirming: string;
  /** The platform fee and the net the ledger settled, in the coin paid; null until the invoice is settled. */
  settlement: SettlementFigures | null;
  /** Where this invoice's events go: the store's registered endpoint, the invoice's url_callback. */
  webhookTargets: { endpoint: boolean; callback: boolean };
  /** Oldest first. */
  timeline: TimelineEvent[];
  transfers: InvoiceTransfer[];
  deliveries: InvoiceDelivery[];
  refunds: InvoiceRefund[];
}

/**
 * An invoice of the merchant with everything the service stored about it. Another merchant's
 * invoice, and anything that is not a uuid, is `cabinet.not_found`.
 *
 * The timeline is built only from stored facts, each with the time its row holds:
 * - created: invoices.created_at;
 * - transfer_seen: chain_transfers.created_at (when the watcher recorded it);
 * - transfer_credited / transfer_reversed / settled / settlement_clawed_back: the created_at of
 *   the ledger journals `transfer:<id>:credit:<n>`, `…:reversed`, `invoice:<id>:settle:<n>` and
 *   `invoice:<id>:clawback:<transfer>:<n>` (the references are known from the rows' counters);
 * - final: invoices.final_at (set once, the first time it became final) and the current status;
 * - webhook: webhook_deliveries of the invoice — delivered_at, or updated_at of the last failed
 *   attempt (retrying, dead), or created_at while nothing was attempted;
 * - refund_created: payouts of kind refund for the invoice, created_at.
 * Not stored, so not shown: when a coin was selected on a currency-agnostic invoice, each change of
 * a transfer's confirmation count (only the current count is kept), and non-final status changes.
 */
export async function loadInvoiceDetail(deps: Pick<AppDeps, "db" | "config">, merchantId: string, invoiceId: string): Promise<InvoiceDetail> {
  if (!isUuid(invoiceId)) throw new AppError("cabinet.not_found");
  const invoice = await deps.db.invoice.findFirst({ where: { id: invoiceId, merchantId } });
  if (!invoice) throw new AppError("cabinet.not_found");

  const [transfers, deliveries, refunds, endpoint] = await Promise.all([
    deps.db.chainTransfer.findMany({ where: { invoiceId: invoice.id, invoice: { merchantId } }, orderBy: [{ createdAt: "asc" }, { position: "asc" }] }),
    // No index has object_id: the merchant's deliveries from the invoice's creation on (none is older).
    deps.db.webhookDelivery.findMany({ where: { merchantId, objectId: invoice.id, createdAt: { gte: invoice.createdAt } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    deps.db.payout.findMany({ where: { merchantId, invoiceId: invoice.id, kind: "refund" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    deps.db.webhookEndpoint.findUnique({ where: { merchantId }, select: { url: true } }),
  ]);
  const payerAsset = invoice.payerCurrency && invoice.network ? findSettlementAsset(invoice.payerCurrency, invoice.network) : undefined;
  const confirmingMinor = transfers
    .filter((transfer) => transfer.status === "seen" && transfer.invoiceId === invoice.id && transfer.currency === invoice.payerCurrency)
    .reduce((sum, transfer) => sum + toMinor(transfer.amountMinor), 0n);
  const journals = await deps.db.ledgerJournal.findMany({ where: { reference: { in: journalReferences(invoice, transfers) } }, select: { reference: true, createdAt: true } });
  const journalTimes = new Map(journals.map((journal) => [journal.reference, journal.createdAt]));
  const settlement = (await loadSettlementFigures(deps.db, [invoice])).get(invoice.id) ?? null;

  return {
    payment: await toPayment(invoice, deps.config.publicBaseUrl),
    refundStatus: refundSummary(toMinor(invoice.amountPaidMinor), refunds),
    ...refundFigures(invoice, refunds),
    confirming: payerAsset ? formatAmount(confirmingMinor, payerAsset.decimals) : "0",
    settlement,
    webhookTargets: { endpoint: Boolean(endpoint?.url), callback: Boolean(invoice.urlCallback) },
    timeline: buildTimeline(invoice, transfers, deliveries, refunds, journalTimes),
    transfers: transfers.map((transfer) => toInvoiceTransfer(transfer, journalTimes.get(creditReference(transfer.id, transfer.credits)) ?? null)),
    deliveries: deliveries.map(toInvoiceDelivery),
    refunds: refunds.map((refund) => toRefundObject(refund, invoice)),
  };
}

function creditReference(transferId: string, credit: number): string {
  return `transfer:${transferId}:credit:${credit}`;
}

function settlementReference(invoiceId: string, settlement: number): string {
  return `invoice:${invoiceId}:settle:${settlement}`;
}

function clawbackReference(invoiceId: string, transferId: string, credit: number): string {
  return `invoice:${invoiceId}:clawback:${transferId}:${credit}`;
}

/** Every journal reference the invoice's money events may have used: exact names, read through the unique index. */
function journalReferences(invoice: Invoice, transfers: ChainTransfer[]): string[] {
  const references: string[] = [];
  for (let settlement = 0; settlement < invoice.settlements; settlement++) references.push(settlementReference(invoice.id, settlement));
  for (const transfer of transfers) {
    for (let credit = 1; credit <= transfer.credits; credit++) {
      references.push(creditReference(transfer.id, credit), `${creditReference(transfer.id, credit)}:reversed`, clawbackReference(invoice.id, transfer.id, credit));
    }
  }
  return references;
}

function toInvoiceTransfer(transfer: ChainTransfer, creditedAt: Date | null): InvoiceTransfer {
  const decimals = findSettlementAsset(transfer.currency, transfer.network)?.decimals ?? 0;
  return {
    id: transfer.id,
    txid: transfer.txid,
    position: transfer.position,
    network: transfer.network,
    networkName: findNetwork(transfer.network)?.displayName ?? transfer.network,
    currency: transfer.currency,
    amount: formatAmount(toMinor(transfer.amountMinor), decimals),
    fromAddress: transfer.fromAddress === "" ? null : transfer.fromAddress,
    toAddress: transfer.toAddress,
    confirmations: transfer.confirmations,
    blockHeight: transfer.blockHeight,
    blockHash: transfer.blockHash,
    status: transfer.status as InvoiceTransfer["status"],
    seenAt: transfer.createdAt,
    creditedAt,
  };
}

function toInvoiceDelivery(delivery: WebhookDelivery): InvoiceDelivery {
  const status = delivery.status as DeliveryStatus;
  return {
    id: delivery.id,
    eventType: delivery.eventType,
    target: delivery.target,
    url: delivery.url,
    status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    nextAttemptAt: status === "pending" ? delivery.nextAttemptAt : null,
    deliveredAt: delivery.deliveredAt,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}

function buildTimeline(
  invoice: Invoice,
  transfers: ChainTransfer[],
  deliveries: WebhookDelivery[],
  refunds: Parameters<typeof toRefundObject>[0][],
  journalTimes: ReadonlyMap<string, Date>,
): TimelineEvent[] {
  // Pushed in the order things happen within one moment (a credit, its settlement, the final
  // status and its event share one transaction's time); the stable sort keeps that order.
  const events: TimelineEvent[] = [{ kind: "created", at: invoice.createdAt, amount: describeInvoiceAmounts(invoice).amount, currency: invoice.priceCurrency }];
  // The watcher dates a transfer when it records it, but the credits of its pass with the pass's
  // start: a transfer seen and credited in one pass would sort after its own credit. It sorts
  // at its first credit then; the times shown stay as stored.
  const sortTimes = new Map<TimelineEvent, number>();
  for (const transfer of transfers) {
    const decimals = findSettlementAsset(transfer.currency, transfer.network)?.decimals ?? 0;
    const named = { transferId: transfer.id, txid: transfer.txid };
    const seen: TimelineEvent = { kind: "transfer_seen", at: transfer.createdAt, ...named, amount: formatAmount(toMinor(transfer.amountMinor), decimals), currency: transfer.currency, network: transfer.network };
    const firstCredit = journalTimes.get(creditReference(transfer.id, 1));
    if (firstCredit && firstCredit < transfer.createdAt) sortTimes.set(seen, firstCredit.getTime());
    events.push(seen);
    for (let credit = 1; credit <= transfer.credits; credit++) {
      const credited = journalTimes.get(creditReference(transfer.id, credit));
      const reversed = journalTimes.get(`${creditReference(transfer.id, credit)}:reversed`);
      const clawedBack = journalTimes.get(clawbackReference(invoice.id, transfer.id, credit));
      if (credited) events.push({ kind: "transfer_credited", at: credited, ...named, credit });
      if (reversed) events.push({ kind: "transfer_reversed", at: reversed, ...named, credit });
      if (clawedBack) events.push({ kind: "settlement_clawed_back", at: clawedBack, ...named });
    }
  }
  for (let settlement = 0; settlement < invoice.settlements; settlement++) {
    const settled = journalTimes.get(settlementReference(invoice.id, settlement));
    if (settled) events.push({ kind: "settled", at: settled, settlement });
  }
  const status = invoice.status as PaymentStatus;
  if (invoice.finalAt && isFinalPaymentStatus(status)) events.push({ kind: "final", at: invoice.finalAt, status });
  for (const delivery of deliveries) {
    const outcome = delivery.status === "delivered" ? "delivered" : delivery.status === "dead" ? "dead" : delivery.attempts > 0 && delivery.lastError !== "" ? "retrying" : "queued";
    const at = outcome === "delivered" ? (delivery.deliveredAt ?? delivery.updatedAt) : outcome === "queued" ? delivery.createdAt : delivery.updatedAt;
    events.push({ kind: "webhook", at, outcome, deliveryId: delivery.id, eventType: delivery.eventType, target: delivery.target, attempts: delivery.attempts, lastStatusCode: delivery.lastStatusCode });
  }
  for (const refund of refunds) {
    const view = describePayout(refund);
    events.push({ kind: "refund_created", at: refund.createdAt, payoutId: refund.id, amount: view.amount, currency: refund.currency, status: view.coarseStatus });
  }
  const sortTime = (event: TimelineEvent) => sortTimes.get(event) ?? event.at.getTime();
  return events.sort((a, b) => sortTime(a) - sortTime(b));
}

/** What is left to refund of the invoice and what it received beyond its amount due, in the coin paid. */
function refundFigures(invoice: Invoice, refunds: Payout[]): Pick<InvoiceDetail, "leftToRefund" | "overpaid"> {
  const decimals = settlementDecimals(invoice);
  if (!decimals || invoice.payerAmountMinor === null) return { leftToRefund: "0", overpaid: "0" };
  const received = toMinor(invoice.amountPaidMinor);
  const due = toMinor(invoice.payerAmountMinor);
  return {
    leftToRefund: formatAmount(refundableMinor(received, refunds), decimals.onChain),
    overpaid: formatAmount(received > due ? received - due : 0n, decimals.onChain),
  };
}
