import { z } from "zod";
import type { Payout } from "@/generated/prisma/client";
import { findSettlementAsset } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { coarsePayoutStatus, isFinalPayoutStatus, PAYOUT_STATUSES, type CoarsePayoutStatus, type PayoutStatus } from "@/lib/domain/payout/transition";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";

/** A payout's amounts as decimal strings in its currency, and its statuses, as every view shows them. */
export function describePayout(payout: Payout) {
  const decimals = findSettlementAsset(payout.currency, payout.network)?.decimals ?? 0;
  const format = (minor: bigint) => formatAmount(minor, decimals);
  const status = payout.status as PayoutStatus;
  return {
    /** As requested: what the recipient gets with the fee on top, what the balance gives otherwise. */
    amount: format(BigInt(payout.requestedAmount)),
    receiveAmount: format(toMinor(payout.amountMinor)),
    fee: format(toMinor(payout.feeMinor)),
    debitAmount: format(toMinor(payout.debitMinor)),
    status,
    coarseStatus: coarsePayoutStatus(status),
    isFinal: isFinalPayoutStatus(status),
  };
}

const COARSE_PAYOUT_STATUSES = ["check", "process", "paid", "fail", "cancel"] as const satisfies readonly CoarsePayoutStatus[];
const coarseStatus = z.enum(COARSE_PAYOUT_STATUSES).describe("Coarse status: `check` (waiting for approval), `process` (approved, being sent, sent), `paid` (confirmed), `fail` (rejected or failed), `cancel`.");
const decimal = (what: string) => z.string().describe(`${what}, a decimal string in the asset's units.`);
const timestamp = (what: string) => z.iso.datetime().describe(`${what} (RFC 3339, UTC).`);
const txid = z.string().describe("Hash of the on-chain transaction; empty until sent.");

/** spec: Payout — when `from_currency` funded the payout (designed: `from_network`, the USDT balance used). */
export const PAYOUT_CONVERSION_SCHEMA = z
  .object({
    from_currency: z.literal("USDT").describe("The currency converted from (only USDT)."),
    to_currency: z.string().describe("The payout's currency."),
    from_amount: decimal("USDT taken from the balance"),
    rate: z.string().describe("USDT per unit of `to_currency`, a decimal string."),
    from_network: z.string().describe("The network of the USDT balance that was converted."),
  })
  .meta({ id: "PayoutConversion", description: "How the payout was funded by converting the merchant's USDT." });

/** spec: Payout — the fields of create and mass responses, then the designed ones of the full object. */
export const PAYOUT_SCHEMA = z
  .object({
    uuid: z.guid().describe("The payout's identifier."),
    order_id: z.string().describe("The merchant's reference, unique per merchant; service-made payouts carry `payoutlink:`, `autowithdraw:`, `refund:`, `split:`, `transfer:` or `walletrefund:` prefixes."),
    amount: decimal("The amount as requested: what the recipient gets when the fee is on top, what the balance gives otherwise"),
    currency: z.string().describe("Currency symbol, e.g. `USDT`."),
    network: z.string().describe("Network id, e.g. `tron`."),
    address: z.string().describe("Recipient address, in the network's canonical form."),
    txid,
    status: coarseStatus,
    is_final: z.boolean().describe("Whether the status is terminal (`paid`, `fail`, `cancel`)."),
    approval_required: z
      .boolean()
      .describe(
        "True for `manual` payouts, which wait for approval by someone other than their creator, and for payouts the store's money-out policy held (above the owner's thresholds); false for payouts made with an API key and approved at once.",
      ),
    source: z.enum(["api", "manual"]).describe("`api` (approved at once) or `manual` (waits for approval)."),
    created_at: timestamp("Creation time"),
    updated_at: timestamp("Last change"),
    internal_status: z.enum(PAYOUT_STATUSES).describe("The internal lifecycle status, as in the `payout.<status>` event types."),
    memo: z.string().describe("Destination tag or memo (TON comment); empty when none."),
    is_subtract: z.boolean().describe("True: the fee is on top (the balance gives `amount` + fee, the recipient gets `amount`). False: the fee comes out of `amount`."),
    commission: decimal("The payout (network) fee, fixed at creation"),
    receive_amount: decimal("What the recipient receives"),
    debit_amount: decimal("What the merchant's balance gives"),
    wait_reason: z.string().describe("Why an approved payout is not moving yet (for example the hot wallet is short of funds); empty when it is."),
    kind: z.enum(["payout", "refund", "split", "wallet_refund"]).describe("`payout`; `refund` of a payment; `split`, an external partner's share of a payment; `wallet_refund`, a blocked static wallet's held deposits returned."),
    payment_uuid: z.string().describe("The payment a refund or split share comes from; empty otherwise."),
    convert: PAYOUT_CONVERSION_SCHEMA.optional().describe("Present when `from_currency` funded the payout."),
  })
  .meta({ id: "Payout", description: "A payout (refunds, split shares and auto-withdrawals are payouts too)." });

export type PayoutObject = z.output<typeof PAYOUT_SCHEMA>;

export function toPayoutObject(payout: Payout): PayoutObject {
  const view = describePayout(payout);
  return {
    uuid: payout.id,
    order_id: payout.orderId,
    amount: view.amount,
    currency: payout.currency,
    network: payout.network,
    address: payout.address,
    txid: payout.txid,
    status: view.coarseStatus,
    is_final: view.isFinal,
    approval_required: payout.source === "manual" || payout.holdReason !== "",
    source: payout.source as PayoutObject["source"],
    created_at: payout.createdAt.toISOString(),
    updated_at: payout.updatedAt.toISOString(),
    internal_status: payout.status as PayoutStatus,
    memo: payout.memo ?? "",
    is_subtract: payout.isSubtract,
    commission: view.fee,
    receive_amount: view.receiveAmount,
    debit_amount: view.debitAmount,
    wait_reason: payout.waitReason,
    kind: payout.kind as PayoutObject["kind"],
    payment_uuid: payout.invoiceId ?? "",
    ...(payout.convertFromCurrency && payout.convertFromNetwork && payout.convertFromAmount && payout.convertRate
      ? {
          convert: {
            from_currency: payout.convertFromCurrency as "USDT",
            to_currency: payout.currency,
            from_amount: formatAmount(toMinor(payout.convertFromAmount), findSettlementAsset(payout.convertFromCurrency, payout.convertFromNetwork)?.decimals ?? 0),
            rate: payout.convertRate,
            from_network: payout.convertFromNetwork,
          },
        }
      : {}),
  };
}

/** spec: Payment (invoice) — a refund element of payment info. */
export const REFUND_ELEMENT_SCHEMA = z
  .object({
    uuid: z.guid().describe("The refund's identifier (a refund is a payout)."),
    status: coarseStatus,
    amount: decimal("The amount refunded, in the payment's coin"),
    address: z.string().describe("Where the refund goes."),
    txid,
    is_final: z.boolean().describe("Whether the status is terminal (`paid`, `fail`, `cancel`)."),
    created_at: timestamp("Creation time"),
  })
  .meta({ id: "RefundElement", description: "A refund of a payment, as payment info lists it." });

export function toRefundElement(refund: Payout): z.output<typeof REFUND_ELEMENT_SCHEMA> {
  const view = describePayout(refund);
  return {
    uuid: refund.id,
    status: view.coarseStatus,
    amount: view.amount,
    address: refund.address,
    txid: refund.txid,
    is_final: view.isFinal,
    created_at: refund.createdAt.toISOString(),
  };
}

/** spec: POST /v1/payment/refund — the refund element with its payment and asset, plus designed fields. */
export const REFUND_SCHEMA = REFUND_ELEMENT_SCHEMA.extend({
  payment_uuid: z.guid().describe("The refunded payment."),
  order_id: z.string().describe("The refunded payment's `order_id`; empty when it has none."),
  currency: z.string().describe("The coin the payment received, which the refund returns."),
  network: z.string().describe("The network the payment was received on."),
  commission: decimal("The payout (network) fee of the refund"),
  receive_amount: decimal("What the payer receives: `amount`, or `amount` less the fee when the refund fee-config makes the customer bear it"),
}).meta({ id: "Refund", description: "A refund: a payout of the coin a payment received, back to the payer." });

export function toRefundObject(refund: Payout, payment: { id: string; orderId: string | null }): z.output<typeof REFUND_SCHEMA> {
  const view = describePayout(refund);
  return {
    ...toRefundElement(refund),
    payment_uuid: payment.id,
    order_id: payment.orderId ?? "",
    currency: refund.currency,
    network: refund.network,
    commission: view.fee,
    receive_amount: view.receiveAmount,
  };
}
