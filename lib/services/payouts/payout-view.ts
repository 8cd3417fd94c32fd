import type { Payout } from "@/generated/prisma/client";
import { findSettlementAsset } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { coarsePayoutStatus, isFinalPayoutStatus, type PayoutStatus } from "@/lib/domain/payout/transition";
import { toMinor } from "@/lib/services/invoices/invoice-view";

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

/** spec: Payout — the fields of create and mass responses, then the designed ones of the full object. */
export interface PayoutObject {
  uuid: string;
  order_id: string;
  amount: string;
  currency: string;
  network: string;
  address: string;
  txid: string;
  status: string;
  is_final: boolean;
  approval_required: boolean;
  source: string;
  created_at: string;
  updated_at: string;
  /** Designed: the internal status (spec: Payout status), e.g. `broadcasting`. */
  internal_status: string;
  memo: string;
  is_subtract: boolean;
  /** Designed: the payout fee, what the recipient receives, and what the balance gave. */
  commission: string;
  receive_amount: string;
  debit_amount: string;
  /** Designed: why an approved payout is not moving yet (empty when it is). */
  wait_reason: string;
  /** Designed: `payout`, `refund` (of a payment), `split` (an external partner's share of a payment) or `wallet_refund` (a blocked static wallet's held deposits). */
  kind: string;
  /** Designed: the payment a refund or split share comes from; empty for a payout. */
  payment_uuid: string;
  /** spec: present when `from_currency` funded the payout (designed: `from_network`, the USDT balance used). */
  convert?: { from_currency: string; to_currency: string; from_amount: string; rate: string; from_network: string };
}

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
    approval_required: payout.source === "manual",
    source: payout.source,
    created_at: payout.createdAt.toISOString(),
    updated_at: payout.updatedAt.toISOString(),
    internal_status: payout.status,
    memo: payout.memo ?? "",
    is_subtract: payout.isSubtract,
    commission: view.fee,
    receive_amount: view.receiveAmount,
    debit_amount: view.debitAmount,
    wait_reason: payout.waitReason,
    kind: payout.kind,
    payment_uuid: payout.invoiceId ?? "",
    ...(payout.convertFromCurrency && payout.convertFromNetwork && payout.convertFromAmount && payout.convertRate
      ? {
          convert: {
            from_currency: payout.convertFromCurrency,
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
export function toRefundElement(refund: Payout) {
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
export function toRefundObject(refund: Payout, payment: { id: string; orderId: string | null }) {
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
