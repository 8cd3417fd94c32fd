import { formatAmount } from "@/lib/domain/money/amount";
import { randomUUID } from "node:crypto";
import type { Payout } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { findSettlementAsset, normalizeNetworkId, type NetworkId } from "@/lib/catalogue";
import type { SettlementAsset } from "@/lib/catalogue/types";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { addressChainOf } from "@/lib/chains/registry";
import { computePayoutAmounts } from "@/lib/domain/payout/amounts";
import { LIVE_PAYOUT_STATUSES } from "@/lib/domain/payout/transition";
import { parseAmount } from "@/lib/domain/money/amount";
import { AppError } from "@/lib/errors";
import { getMerchantInvoiceOrThrow } from "@/lib/services/invoices/find-invoice";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { assetKey } from "@/lib/ledger/postings";
import { balanceTurn, recordNewPayout } from "@/lib/services/money-out/record-new-payout";
import { quoteFee, type PayoutDeps } from "@/lib/services/money-out/payout-terms";
import { screenDestination } from "@/lib/services/compliance/screening";
import type { PayoutRowDraft, PayoutWriterDeps } from "@/lib/services/money-out/write-payout";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { checkAddressOn } from "@/lib/services/money-out/payout-destination";
import { moveSplitShares } from "@/lib/services/splits/split-shares";
import type { CreateRefundInput } from "@/lib/api/requests/refund";

/** The payment a refund pays back, as its answer names it. */
export interface RefundedPayment {
  id: string;
  orderId: string | null;
}

/** What a refund call asks for: the merchant's payment, the destination and amount, and who asks. */
export interface RefundRequest {
  merchantId: string;
  input: CreateRefundInput;
  actor: string;
}

/** A refund checked before the database: the payment, where it goes, and what it may cost. */
export interface RefundPlan {
  merchantId: string;
  actor: string;
  payment: RefundedPayment;
  asset: SettlementAsset;
  network: NetworkId;
  address: string;
  isToPayer: boolean;
  /** The amount asked for (minor units), or null for what is left. */
  requested: bigint | null;
  fee: bigint;
  isFeeOnTop: boolean;
  now: Date;
}

/** A refund made, or found again, and the payment it pays back. */
export interface MadeRefund {
  refund: Payout;
  payment: RefundedPayment;
}

/**
 * spec: POST /v1/payment/refund. A refund is a payout of the coin the payment received, on its
 * network, not revalued, auto-approved: by default everything received, to the payer's address.
 * Under the invoice's row lock, the refunds of a payment never add up to more than it received,
 * and a repeat of the same (payment, address, amount) while that refund is live returns it. The
 * payout fee goes on top (the buyer gets the amount) unless the refund fee-config makes the
 * customer bear it. The destination is screened and the fee quoted before the transaction, in the
 * balance's turn.
 */
export const createRefund = {
  prepare: planRefund,
  turnOf: (plan: RefundPlan) => balanceTurn(plan.merchantId, assetKey(plan.asset.symbol, plan.network)),
  execute: writeRefund,
} satisfies UnitOfWork<RefundRequest, RefundPlan, MadeRefund>;

async function planRefund(deps: PayoutDeps, { merchantId, input, actor }: RefundRequest): Promise<RefundPlan> {
  const found = await getMerchantInvoiceOrThrow(deps.db, merchantId, input);
  const payment: RefundedPayment = { id: found.id, orderId: found.orderId };
  if (!found.payerCurrency || !found.network || toMinor(found.amountPaidMinor) === 0n) {
    throw new AppError("refund.nothing_to_refund", found.payerCurrency ? "The payment has received nothing." : "No coin was selected for this payment: it has received nothing.");
  }
  const network = found.network as NetworkId;
  if (input.network !== undefined && input.network !== "" && normalizeNetworkId(input.network) !== network) {
    throw new AppError("payout.asset_mismatch", `The payment was received on ${network}; a refund goes back on the same network.`);
  }
  const asset = findSettlementAsset(found.payerCurrency, network)!;
  const address = refundAddress(deps, network, input.address, found.payerAddress);
  const isToPayer = found.payerAddress !== "" && address === refundAddress(deps, network, undefined, found.payerAddress);
  await assertNotGatewayAddress(deps, { network, address }, "refund.destination_internal");
  await screenDestination(deps, { network, address });

  let requested: bigint | null = null;
  if (input.amount !== undefined && input.amount !== "") {
    requested = parseAmount(input.amount, asset.decimals);
    if (requested === null || requested <= 0n) throw new AppError("refund.bad_amount", `amount must be a positive decimal with at most ${asset.decimals} places.`);
  }
  const fee = await quoteFee(deps, { asset });
  const merchant = await deps.db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { refundFeePayer: true } });
  return { merchantId, actor, payment, asset, network, address, isToPayer, requested, fee, isFeeOnTop: merchant.refundFeePayer === "merchant", now: deps.now() };
}

async function writeRefund(tx: Tx, deps: PayoutWriterDeps, plan: RefundPlan): Promise<MadeRefund> {
  const { merchantId, payment, asset, network, address, requested, fee, isFeeOnTop, now } = plan;
  // One refund decision per payment at a time: what is refundable cannot change underneath.
  await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${payment.id}::uuid FOR UPDATE`;
  const invoice = await tx.invoice.findUniqueOrThrow({ where: { id: payment.id } });
  const counted = await tx.payout.findMany({ where: { invoiceId: invoice.id, kind: "refund", status: { in: LIVE_PAYOUT_STATUSES } } });
  const refunded = counted.reduce((sum, refund) => sum + BigInt(refund.requestedAmount), 0n);
  const refundable = toMinor(invoice.amountPaidMinor) - refunded;
  // Without an amount: what is left — or, when nothing is, the whole payment, so that a repeat
  // of a full refund finds it (spec: idempotency by payment, address and amount).
  const amount = requested ?? (refundable > 0n ? refundable : toMinor(invoice.amountPaidMinor));
  // spec: idempotency by the triple (payment, address, amount) — the same refund, unless it failed.
  const same = counted.find((refund) => refund.address === address && BigInt(refund.requestedAmount) === amount);
  if (same) return { refund: same, payment };
  if (refundable <= 0n) throw new AppError("refund.nothing_to_refund", "Everything this payment received is refunded already.");
  if (amount > refundable) throw new AppError("refund.exceeds_refundable", `At most ${formatAmount(refundable, asset.decimals)} ${asset.symbol} is left to refund.`);
  // Sending less than the fee would cost more than it returns.
  if (amount <= fee) throw new AppError("refund.dust", "The amount does not exceed the network fee of sending it.");
  const amounts = computePayoutAmounts({ requested: amount, fee, isSubtract: isFeeOnTop });
  if (amounts === "below_fee") throw new AppError("refund.dust", "The amount does not exceed the network fee of sending it.");
  // Partners' split shares of the payment shrink first (spec: Split rules), so the money they
  // give back is there for the refund to reserve.
  await moveSplitShares(tx, { invoiceId: invoice.id, creditedDelta: 0n, refundedMinor: refunded + amount, funding: { kind: "available" } }, now);
  const id = randomUUID();
  const row: PayoutRowDraft = {
    id,
    merchantId,
    orderId: `refund:${id}`,
    kind: "refund",
    invoiceId: invoice.id,
    source: "api",
    currency: asset.symbol,
    network,
    address,
    amountMinor: amounts.amount.toString(),
    feeMinor: amounts.fee.toString(),
    debitMinor: amounts.debit.toString(),
    requestedAmount: amount.toString(),
    isSubtract: isFeeOnTop,
    urlCallback: invoice.urlCallback,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
  // Back to the address that paid is never a drain; anywhere else passes the money-out policy.
  const refund = await recordNewPayout(tx, deps, { row, kind: "refund", actor: plan.actor, isToPayer: plan.isToPayer });
  // Under the invoice lock no other live refund can take this (payment, address, amount).
  if (!refund) throw new AppError("refund.reference_collision", "A refund with this reference exists; retry.");
  return { refund, payment };
}

/** The refund's destination: the given address, or the payer's; required where the payer is unknown (UTXO). */
function refundAddress(deps: Pick<PayoutDeps, "config">, network: NetworkId, given: string | undefined, payerAddress: string): string {
  const address = given !== undefined && given.trim() !== "" ? given.trim() : payerAddress;
  if (address === "") throw new AppError("refund.no_address", "The payer's address is not known on this network: give address.");
  return checkAddressOn(network, address, addressChainOf(deps.config, network));
}

/** Designed: refund fee-config — who bears a refund's payout fee. */
export async function getRefundFeeConfig(db: PayoutDeps["db"], merchantId: string): Promise<{ payer: string }> {
  const merchant = await db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { refundFeePayer: true } });
  return { payer: merchant.refundFeePayer };
}

export async function setRefundFeeConfig(db: PayoutDeps["db"], merchantId: string, payer: "merchant" | "customer"): Promise<{ payer: string }> {
  await db.merchant.update({ where: { id: merchantId }, data: { refundFeePayer: payer } });
  return { payer };
}
