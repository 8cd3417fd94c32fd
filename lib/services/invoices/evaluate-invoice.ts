import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { platformFeeMinor } from "@/lib/domain/invoice/quote";
import { eventTypeOfStatus, isFinalPaymentStatus, type PaymentStatus } from "@/lib/domain/invoice/status";
import { decideInvoice } from "@/lib/domain/invoice/transition";
import { postJournal } from "@/lib/ledger/post";
import { assetKey, depositConfirmedJournal, invoiceSettledJournal, lotMaturedJournal } from "@/lib/ledger/postings";
import { buildPaymentEventBody } from "@/lib/webhooks/payloads";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";
import { describeInvoiceAmounts, toMinor } from "./invoice-view";
import type { GatewayConfig } from "@/lib/config/env";
import { queueEmail } from "@/lib/email/outbox";
import { receiptEmail } from "@/lib/email/templates";

export interface EvaluationDeps {
  maturityHoldSeconds: number;
  /** Where the automatic receipt goes; omitted, no receipt is queued. */
  email?: Pick<GatewayConfig, "email">;
}

export function evaluationDepsOf(config: Pick<GatewayConfig, "maturityHoldSeconds" | "email">): EvaluationDeps {
  return { maturityHoldSeconds: config.maturityHoldSeconds, email: config };
}

export interface EvaluationResult {
  status: PaymentStatus;
  changed: boolean;
  /** Webhook deliveries recorded in this transaction: hand them to the dispatcher after commit. */
  deliveryIds: string[];
}

/**
 * Brings one invoice up to date with its transfers and the clock, inside the caller's
 * transaction: credits each transfer that reached its confirmations (exactly once: the journal
 * reference is the transfer id), moves the invoice through its lifecycle, settles the received
 * amount to the merchant net of the platform fee when it becomes final, and records the
 * `invoice.*` event in the same transaction as the money.
 */
export async function evaluateInvoice(tx: Tx, deps: EvaluationDeps, invoiceId: string, now: Date): Promise<EvaluationResult> {
  // The row lock orders every evaluator of this invoice: watchers, expiry, page selection.
  await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${invoiceId}::uuid FOR UPDATE`;
  const invoice = await tx.invoice.findUniqueOrThrow({ where: { id: invoiceId } });
  const status = invoice.status as PaymentStatus;
  // Only the invoice's own asset counts (the watcher links nothing else; this guards the sum).
  const transfers = await tx.chainTransfer.findMany({
    where: { invoiceId, status: { not: "orphaned" }, currency: invoice.payerCurrency ?? "" },
    orderBy: { createdAt: "asc" },
  });
  const asset = invoice.payerCurrency && invoice.network ? assetKey(invoice.payerCurrency, invoice.network) : null;

  let confirmedMinor = 0n;
  let pendingMinor = 0n;
  for (const transfer of transfers) {
    const amount = toMinor(transfer.amountMinor);
    const isDeep = transfer.confirmations >= Math.max(1, invoice.requiredConfirmations);
    if (transfer.status === "seen" && isDeep && asset) {
      const blockHash = transfer.blockHash ?? "unknown-block";
      await postJournal(tx, depositConfirmedJournal({ transferId: transfer.id, blockHash, merchantId: invoice.merchantId, asset, amount }), now);
      await tx.chainTransfer.update({ where: { id: transfer.id }, data: { status: "confirmed", updatedAt: now } });
      transfer.status = "confirmed";
    }
    if (transfer.status === "confirmed") confirmedMinor += amount;
    else pendingMinor += amount;
  }

  const decision = decideInvoice(
    {
      status,
      expectedMinor: toMinor(invoice.payerAmountMinor),
      accuracyBps: invoice.accuracyBps,
      isPaymentMultiple: invoice.isPaymentMultiple,
      expiresAt: invoice.expiresAt,
    },
    { confirmedMinor, pendingMinor },
    now,
  );

  // A final invoice that receives more later (a late or extra payment) still credits it.
  const settledMinor = toMinor(invoice.settledMinor);
  const isFinalNow = isFinalPaymentStatus(decision.status);
  const shouldSettle = asset !== null && isFinalNow && confirmedMinor > settledMinor && (decision.shouldSettle || isFinalPaymentStatus(status));
  if (shouldSettle) {
    const received = confirmedMinor - settledMinor;
    // The fixed part of the fee is taken once, with the first settlement (again after a reorg reversed it).
    const fixed = settledMinor === 0n ? toMinor(invoice.feeFixedAssetMinor) : 0n;
    const fee = platformFeeMinor(received, invoice.feePercentBps, fixed);
    await postJournal(tx, invoiceSettledJournal({ invoiceId, settlement: invoice.settlements, merchantId: invoice.merchantId, asset, received, fee }), now);
    await createMaturityLot(tx, { merchantId: invoice.merchantId, asset, amount: received - fee, reference: `invoice:${invoiceId}:settle:${invoice.settlements}` }, deps, now);
  }

  const first = transfers[0];
  const deepest = transfers.reduce((max, transfer) => Math.max(max, transfer.confirmations), 0);
  const updated = await tx.invoice.update({
    where: { id: invoiceId },
    data: {
      status: decision.status,
      isFinal: isFinalNow,
      amountPaidMinor: confirmedMinor.toString(),
      confirmations: deepest,
      txid: first?.txid ?? invoice.txid,
      payerAddress: first?.fromAddress ?? invoice.payerAddress,
      ...(shouldSettle ? { settledMinor: confirmedMinor.toString(), settlements: { increment: 1 } } : {}),
      updatedAt: now,
    },
  });

  const changed = decision.status !== status;
  const eventType = changed ? eventTypeOfStatus(decision.status) : null;
  let deliveryIds: string[] = [];
  if (eventType) {
    const amounts = describeInvoiceAmounts(updated);
    const body = buildPaymentEventBody({
      uuid: updated.id,
      order_id: updated.orderId ?? "",
      amount: amounts.amount,
      currency: updated.priceCurrency,
      payment_amount: amounts.paymentAmount,
      payer_amount: amounts.payerAmount,
      payer_currency: updated.payerCurrency ?? "",
      status: decision.status,
      is_final: isFinalNow,
      txid: updated.txid,
      additional_data: updated.additionalData ?? "",
    });
    deliveryIds = await recordWebhookEvent(tx, { merchantId: updated.merchantId, eventType, objectId: updated.id, body, callbackUrl: updated.urlCallback, now });
  }
  // spec: payer_email — a receipt is sent automatically after payment.
  const isNewlyPaid = changed && (decision.status === "paid" || decision.status === "paid_over");
  if (isNewlyPaid && updated.payerEmail && deps.email && deps.email.email.mode !== "off") {
    await queueEmail(tx, deps.email, { merchantId: updated.merchantId, recipient: updated.payerEmail, ...receiptEmail(updated) }, now);
  }
  return { status: decision.status, changed, deliveryIds };
}

/**
 * Credited funds start maturing; with a zero hold they mature in the same transaction.
 */
async function createMaturityLot(tx: Tx, lot: { merchantId: string; asset: string; amount: bigint; reference: string }, deps: EvaluationDeps, now: Date) {
  if (lot.amount <= 0n) return;
  const id = randomUUID();
  const maturesAt = new Date(now.getTime() + deps.maturityHoldSeconds * 1000);
  const isMatureNow = deps.maturityHoldSeconds === 0;
  await tx.maturityLot.create({
    data: { id, merchantId: lot.merchantId, asset: lot.asset, amount: lot.amount.toString(), maturesAt, maturedAt: isMatureNow ? now : null, reference: lot.reference, createdAt: now },
  });
  if (isMatureNow) await postJournal(tx, lotMaturedJournal({ lotId: id, merchantId: lot.merchantId, asset: lot.asset, amount: lot.amount }), now);
}

/** Periodic job: moves every lot whose hold ended from maturing to available. Idempotent. */
export async function matureDueLots(db: import("@/lib/db/client").Db, now: Date): Promise<number> {
  const due = await db.maturityLot.findMany({ where: { maturedAt: null, maturesAt: { lte: now } }, take: 500, select: { id: true } });
  let matured = 0;
  for (const { id } of due) {
    const didMature = await db.$transaction(async (tx) => {
      const { count } = await tx.maturityLot.updateMany({ where: { id, maturedAt: null }, data: { maturedAt: now } });
      if (count === 0) return false; // another worker got it
      const lot = await tx.maturityLot.findUniqueOrThrow({ where: { id } });
      await postJournal(tx, lotMaturedJournal({ lotId: id, merchantId: lot.merchantId, asset: lot.asset, amount: toMinor(lot.amount) }), now);
      return true;
    });
    if (didMature) matured++;
  }
  return matured;
}
