import type { Invoice, Payout } from "@/generated/prisma/client";
import { findSettlementAsset } from "@/lib/catalogue";
import { decideResolution, type ResolutionAction } from "@/lib/domain/invoice/resolution";
import type { PaymentStatus } from "@/lib/domain/invoice/status";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { AppError, isAppError } from "@/lib/errors";
import { getMerchantInvoiceOrThrow } from "@/lib/services/invoices/find-invoice";
import { recordInvoiceEvent } from "@/lib/services/invoices/invoice-events";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import type { PayoutDeps } from "@/lib/services/money-out/payout-terms";
import type { PayoutWriterDeps } from "@/lib/services/money-out/write-payout";
import { unitOf, type UnitOfWork } from "@/lib/deps/unit-of-work";
import type { Db, Tx } from "@/lib/db/client";
import { createRefund, type RefundPlan } from "@/lib/services/refunds/create-refund";

/** A resolve call: the merchant's payment, the decision, and for a refund where and how much. */
export interface ResolveRequest {
  merchantId: string;
  input: { uuid?: string; order_id?: string; action: ResolutionAction; address?: string; amount?: string };
  actor: string;
}

/** A resolution decided before the database: the payment as it was read, its next state, and the refund it makes. */
export interface ResolvePlan {
  invoice: Invoice;
  decision: NonNullable<ReturnType<typeof decideResolution>>;
  refund: RefundPlan | null;
}

/** The payment resolved, and the refund it made (null with `accept`). */
export interface ResolvedPayment {
  invoice: Invoice;
  refund: Payout | null;
}

/**
 * Designed: /v1/payment/resolve. A payment that ended underpaid (`wrong_amount`) or overpaid
 * (`paid_over`) is settled once: `accept` makes an underpayment `paid` (event `invoice.paid`) or
 * keeps an overpayment's excess; `refund` returns everything received (underpaid) or the excess
 * (overpaid; `refund.exceeds_excess` above it) as a refund — a payout, with `payout.*` events —
 * made as createRefund makes one, in the same transaction as the resolution (and in its turn).
 */
export const resolvePayment = {
  prepare: planResolution,
  turnOf: (plan: ResolvePlan) => (plan.refund ? createRefund.turnOf(plan.refund) : undefined),
  async execute(tx: Tx, deps: PayoutWriterDeps, plan: ResolvePlan): Promise<ResolvedPayment> {
    const refund = plan.refund ? (await createRefund.execute(tx, deps, plan.refund)).refund : null;
    return { invoice: await markResolved(tx, deps, plan), refund };
  },
} satisfies UnitOfWork<ResolveRequest, ResolvePlan, ResolvedPayment>;

async function planResolution(deps: PayoutDeps, { merchantId, input, actor }: ResolveRequest): Promise<ResolvePlan> {
  const invoice = await getMerchantInvoiceOrThrow(deps.db, merchantId, input);
  const decision = decideResolution({ status: invoice.status as PaymentStatus, resolution: invoice.resolution }, input.action);
  if (!decision) {
    throw new AppError("payment.not_resolvable", invoice.resolution ? `The payment was ${invoice.resolution} already.` : `A ${invoice.status} payment needs no decision.`);
  }
  if (decision.refund === null) return { invoice, decision, refund: null };
  const decimals = findSettlementAsset(invoice.payerCurrency ?? "", invoice.network ?? "")?.decimals ?? 0;
  const excess = toMinor(invoice.amountPaidMinor) - toMinor(invoice.payerAmountMinor);
  let amount = input.amount;
  if (decision.refund === "excess") {
    const requested = amount === undefined || amount === "" ? excess : parseAmount(amount, decimals);
    if (requested === null || requested <= 0n) throw new AppError("refund.bad_amount");
    if (requested > excess) throw new AppError("refund.exceeds_excess", `At most the excess, ${formatAmount(excess, decimals)} ${invoice.payerCurrency}, is refunded.`);
    amount = formatAmount(requested, decimals);
  }
  const refund = await createRefund.prepare(deps, { merchantId, input: { uuid: invoice.id, address: input.address, amount }, actor });
  return { invoice, decision, refund };
}

/** The payment moves to its decided state, unless another call resolved it meanwhile. */
async function markResolved(tx: Tx, deps: Pick<PayoutWriterDeps, "now">, { invoice, decision }: ResolvePlan): Promise<Invoice> {
  const { count } = await tx.invoice.updateMany({
    where: { id: invoice.id, status: invoice.status, resolution: null },
    data: { status: decision.status, resolution: decision.resolution, updatedAt: deps.now() },
  });
  if (count === 0) throw new AppError("payment.not_resolvable", "The payment was resolved meanwhile.");
  const resolved = await tx.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
  if (decision.status !== invoice.status) await recordInvoiceEvent(tx, resolved, deps.now());
  return resolved;
}

/** Designed: /v1/payment/autorefund/get — whether under- and overpayments go back by themselves. */
export async function getAutorefund(db: PayoutDeps["db"], merchantId: string): Promise<{ underpaid: boolean; overpaid: boolean }> {
  const merchant = await db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { autorefundUnderpaidSince: true, autorefundOverpaidSince: true } });
  return { underpaid: merchant.autorefundUnderpaidSince !== null, overpaid: merchant.autorefundOverpaidSince !== null };
}

/**
 * Designed: /v1/payment/autorefund/set. Applies to payments that end under- or overpaid from
 * now on (a payment that ended before the switch keeps waiting for /v1/payment/resolve).
 */
export async function setAutorefund(deps: Pick<PayoutDeps, "db" | "now">, merchantId: string, input: { underpaid?: boolean; overpaid?: boolean }) {
  const current = await deps.db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { autorefundUnderpaidSince: true, autorefundOverpaidSince: true } });
  const since = (isOn: boolean | undefined, was: Date | null) => (isOn === undefined ? was : isOn ? (was ?? deps.now()) : null);
  await deps.db.merchant.update({
    where: { id: merchantId },
    data: { autorefundUnderpaidSince: since(input.underpaid, current.autorefundUnderpaidSince), autorefundOverpaidSince: since(input.overpaid, current.autorefundOverpaidSince) },
  });
  return getAutorefund(deps.db, merchantId);
}

/** Refusals after which an automatic refund is not tried again: the merchant decides with resolve. */
const GIVE_UP: ReadonlySet<string> = new Set(["refund.dust", "refund.nothing_to_refund", "refund.exceeds_refundable", "refund.destination_internal", "compliance.blocked", "payout.bad_address", "payout.address_network_mismatch"]);
/** Attempts of a refund that only waits (funds maturing, a freeze, no rate) before it is left to the merchant. */
const MAX_AUTOREFUND_ATTEMPTS = 50;

/**
 * Payments an autorefund is due for: each ended underpaid or overpaid after the merchant turned
 * autorefund on, has a known payer address and no resolution, and is not given up or waiting out
 * its backoff (see recordAutorefundFailure).
 */
export function listDueAutorefunds(db: Db, now: Date, limit: number): Promise<{ id: string; merchant_id: string }[]> {
  return db.$queryRaw<{ id: string; merchant_id: string }[]>`
    SELECT i.id::text AS id, i.merchant_id::text AS merchant_id FROM invoices i JOIN merchants m ON m.id = i.merchant_id
    LEFT JOIN auto_refund_attempts a ON a.invoice_id = i.id
    WHERE i.resolution IS NULL AND i.payer_address <> '' AND i.final_at IS NOT NULL
      AND ((i.status = 'wrong_amount' AND m.autorefund_underpaid_since IS NOT NULL AND i.final_at >= m.autorefund_underpaid_since)
        OR (i.status = 'paid_over' AND m.autorefund_overpaid_since IS NOT NULL AND i.final_at >= m.autorefund_overpaid_since))
      AND (a.invoice_id IS NULL OR (NOT a.is_given_up AND a.next_attempt_at <= ${now}))
    ORDER BY i.final_at LIMIT ${limit}`;
}

/**
 * An automatic refund that could not be made: one that cannot be made at all (dust, a blocked
 * address, already refunded by hand) is left to the merchant; one that only waits (funds
 * maturing, a freeze, no rate) is tried again after a backoff (10 s doubling to 10 minutes), at
 * most 50 times. The attempt row is locked, so two workers count one failure each.
 */
export const recordAutorefundFailure = unitOf(async (tx, deps, { invoiceId, error }: { invoiceId: string; error: unknown }): Promise<{ attempts: number; isGivenUp: boolean }> => {
  const now = deps.now();
  const reason = (isAppError(error) ? `${error.code}: ${error.message}` : "internal error").slice(0, 500);
  await tx.autoRefundAttempt.createMany({ data: [{ invoiceId, attempts: 0, isGivenUp: false, nextAttemptAt: now, lastError: "" }], skipDuplicates: true });
  const [previous] = await tx.$queryRaw<{ attempts: number }[]>`SELECT attempts FROM auto_refund_attempts WHERE invoice_id = ${invoiceId}::uuid FOR UPDATE`;
  const attempts = previous.attempts + 1;
  const isGivenUp = (isAppError(error) && GIVE_UP.has(error.code)) || attempts >= MAX_AUTOREFUND_ATTEMPTS;
  const nextAttemptAt = new Date(now.getTime() + Math.min(10_000 * 2 ** Math.min(attempts - 1, 16), 600_000));
  await tx.autoRefundAttempt.update({ where: { invoiceId }, data: { attempts, isGivenUp, nextAttemptAt, lastError: reason } });
  return { attempts, isGivenUp };
});
