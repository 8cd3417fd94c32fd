import { randomUUID } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import type { PaymentStatus } from "@/lib/domain/invoice/status";
import { decideInvoice } from "@/lib/domain/invoice/transition";
import { lockAccounts, postJournal } from "@/lib/ledger/post";
import { assetKey, depositConfirmedJournal, invoiceSettledJournal, lotMaturedJournal, PLATFORM, type Bucket } from "@/lib/ledger/postings";
import { recordInvoiceEvent } from "@/lib/services/invoices/invoice-events";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import type { GatewayConfig } from "@/lib/config/env";
import { queueEmail } from "@/lib/email/outbox";
import { receiptEmail } from "@/lib/email/templates";
import { findSettlementAsset, requiredConfirmations } from "@/lib/catalogue";
import { requiredConfirmationsForTransfer } from "@/lib/domain/invoice/transfer-confirmations";
import { repayDebtFromAvailable } from "@/lib/ledger/debt";
import { recordDueAutoWithdrawal } from "@/lib/services/payouts/auto-withdraw";
import { moveSplitShares, takeSplitShares } from "@/lib/services/splits/split-shares";

export interface EvaluationDeps {
  maturityHoldSeconds: number;
  /** Whether settlements take partners' split shares (GATEWAY_SPLITS). */
  splitsEnabled: boolean;
  /** Where the automatic receipt goes; omitted, no receipt is queued. */
  email?: Pick<GatewayConfig, "email">;
}

export function evaluationDepsOf(config: Pick<GatewayConfig, "maturityHoldSeconds" | "splitsEnabled" | "email">): EvaluationDeps {
  return { maturityHoldSeconds: config.maturityHoldSeconds, splitsEnabled: config.splitsEnabled, email: config };
}

export interface EvaluationResult {
  status: PaymentStatus;
  changed: boolean;
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

  const settlementAsset = invoice.payerCurrency && invoice.network ? findSettlementAsset(invoice.payerCurrency, invoice.network) : undefined;
  // Before the first journal: every account a credit, a settlement and a maturing lot touch, in
  // the ledger's order (payouts and refunds lock the same merchant accounts in the same order).
  let isLocked = false;
  const lockMoney = async () => {
    if (isLocked || !asset) return;
    isLocked = true;
    const merchant = (bucket: Bucket) => ({ owner: invoice.merchantId, asset, bucket });
    await lockAccounts(tx, [merchant("available"), merchant("debt"), merchant("incoming"), merchant("maturing"), merchant("split_held"), { owner: PLATFORM, asset, bucket: "chain" }, { owner: PLATFORM, asset, bucket: "fees" }], now);
  };
  let confirmedMinor = 0n;
  let pendingMinor = 0n;
  for (const transfer of transfers) {
    const amount = toMinor(transfer.amountMinor);
    const required = requiredConfirmationsForTransfer({
      invoiceRequired: invoice.requiredConfirmations,
      amountMinor: amount,
      payerAmountMinor: toMinor(invoice.payerAmountMinor),
      priceUsdMinor: invoice.priceUsdMinor === null ? null : toMinor(invoice.priceUsdMinor),
      tierFor: (valueUsdMinor) => (settlementAsset ? requiredConfirmations(settlementAsset, valueUsdMinor) : invoice.requiredConfirmations),
    });
    if (transfer.status === "seen" && transfer.confirmations >= required && asset) {
      // Each inclusion is its own numbered credit: one reversed by a reorganisation is followed by the next.
      const credit = transfer.credits + 1;
      await lockMoney();
      await postJournal(tx, depositConfirmedJournal({ transferId: transfer.id, credit, merchantId: invoice.merchantId, asset, amount }), now);
      await tx.chainTransfer.update({ where: { id: transfer.id }, data: { status: "confirmed", credits: credit, updatedAt: now } });
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
      settledMinor: toMinor(invoice.settledMinor),
      fee: { percentBps: invoice.feePercentBps, fixedMinor: toMinor(invoice.feeFixedAssetMinor) },
    },
    { confirmedMinor, pendingMinor },
    now,
  );

  // The decision's effects, in this transaction: the settlement's money, the status, the event, the receipt.
  const { settlement } = decision;
  if (settlement && asset) {
    const { receivedMinor: received, feeMinor: fee } = settlement;
    await lockMoney();
    // Partners' split shares come out of the net credit first and wait for the refund window.
    const net = received - (fee > received ? received : fee);
    if (invoice.settlements === 0) await takeSplitShares(tx, deps, { id: invoiceId, merchantId: invoice.merchantId, network: invoice.network!, asset }, now);
    const splitHeld = await moveSplitShares(tx, { invoiceId, creditedDelta: net, funding: { kind: "settlement", netMinor: net, settings: deps } }, now);
    await postJournal(tx, invoiceSettledJournal({ invoiceId, settlement: invoice.settlements, merchantId: invoice.merchantId, asset, received, fee, splitHeld }), now);
    await createMaturityLot(tx, { merchantId: invoice.merchantId, asset, amount: net - splitHeld, reference: `invoice:${invoiceId}:settle:${invoice.settlements}` }, deps, now);
  }

  const first = transfers[0];
  const deepest = transfers.reduce((max, transfer) => Math.max(max, transfer.confirmations), 0);
  const updated = await tx.invoice.update({
    where: { id: invoiceId },
    data: {
      status: decision.status,
      isFinal: decision.isFinal,
      // When it ended: set once, the first time it becomes final (late money does not move it).
      ...(decision.isFinal && !invoice.isFinal ? { finalAt: now } : {}),
      amountPaidMinor: confirmedMinor.toString(),
      confirmations: deepest,
      txid: first?.txid ?? invoice.txid,
      payerAddress: first?.fromAddress ?? invoice.payerAddress,
      ...(settlement ? { settledMinor: confirmedMinor.toString(), settlements: { increment: 1 } } : {}),
      updatedAt: now,
    },
  });

  if (decision.eventType) await recordInvoiceEvent(tx, updated, now);
  // spec: payer_email — a receipt is sent automatically after payment.
  if (decision.shouldSendReceipt && updated.payerEmail && deps.email && deps.email.email.mode !== "off") {
    await queueEmail(tx, deps.email, { merchantId: updated.merchantId, recipient: updated.payerEmail, ...receiptEmail(updated) }, now);
  }
  const changed = decision.status !== status;
  return { status: decision.status, changed };
}

/**
 * Credited funds start maturing; with a zero hold they mature in the same transaction. A lot of
 * nothing is kept while it matures (split shares took the whole credit): what a refund makes a
 * share give back during the hold matures with it.
 */
export async function createMaturityLot(tx: Tx, lot: { merchantId: string; asset: string; amount: bigint; reference: string }, deps: EvaluationDeps, now: Date) {
  const isMatureNow = deps.maturityHoldSeconds === 0;
  if (lot.amount < 0n || (lot.amount === 0n && isMatureNow)) return;
  const id = randomUUID();
  const maturesAt = new Date(now.getTime() + deps.maturityHoldSeconds * 1000);
  await tx.maturityLot.create({
    data: { id, merchantId: lot.merchantId, asset: lot.asset, amount: lot.amount.toString(), maturesAt, maturedAt: isMatureNow ? now : null, reference: lot.reference, createdAt: now },
  });
  if (isMatureNow) await makeLotAvailable(tx, { id, merchantId: lot.merchantId, asset: lot.asset, amount: lot.amount, reference: lot.reference }, now);
}

/**
 * maturing → available; what the merchant owes in that asset is paid back from it first, and
 * what is left goes out by the merchant's auto-withdraw rule, if it has one for the asset.
 */
async function makeLotAvailable(tx: Tx, lot: { id: string; merchantId: string; asset: string; amount: bigint; reference: string }, now: Date): Promise<void> {
  await postJournal(tx, lotMaturedJournal({ lotId: lot.id, merchantId: lot.merchantId, asset: lot.asset, amount: lot.amount }), now);
  const repaid = await repayDebtFromAvailable(tx, { merchantId: lot.merchantId, asset: lot.asset, reference: `lot:${lot.id}:debt` }, now);
  await recordDueAutoWithdrawal(tx, { id: lot.id, merchantId: lot.merchantId, asset: lot.asset, reference: lot.reference, added: lot.amount - repaid }, now);
}

/** Lots whose hold ended and that have not matured yet, for the maturity job. */
export async function listDueLots(db: Db, now: Date, limit: number): Promise<string[]> {
  const due = await db.maturityLot.findMany({ where: { maturedAt: null, maturesAt: { lte: now } }, take: limit, select: { id: true } });
  return due.map((lot) => lot.id);
}

/** One lot from maturing to available; false when another worker got it first. Idempotent. */
export async function matureLot(tx: Tx, id: string, now: Date): Promise<boolean> {
  // The conditional update locks the lot: a reorganisation clawing it back waits, then sees it matured.
  const { count } = await tx.maturityLot.updateMany({ where: { id, maturedAt: null }, data: { maturedAt: now } });
  if (count === 0) return false; // another worker got it, or a clawback took it all
  const lot = await tx.maturityLot.findUniqueOrThrow({ where: { id } });
  // A lot clawed back to nothing by a reorganisation has nothing left to mature.
  if (toMinor(lot.amount) > 0n) await makeLotAvailable(tx, { id, merchantId: lot.merchantId, asset: lot.asset, amount: toMinor(lot.amount), reference: lot.reference }, now);
  return true;
}
