import type { PayoutEventStatus } from "@/lib/domain/payout/transition";

/**
 * Event bodies exactly as spec: Events — Body shapes lists them, and the event type of each.
 * Amounts are decimal strings; every body may carry `is_test: true` for test deliveries.
 */

export interface PaymentEventFields {
  uuid: string;
  order_id: string;
  amount: string;
  currency: string;
  payment_amount: string | null;
  payer_amount: string;
  payer_currency: string;
  status: string;
  is_final: boolean;
  txid: string;
  additional_data: string;
}

export interface WalletEventFields {
  /** The deposit: each credited deposit is its own event (receivers deduplicate on uuid and status). */
  uuid: string;
  /** Designed: the static wallet the deposit paid. */
  wallet_uuid: string;
  order_id: string;
  address: string;
  network: string;
  currency: string;
  payment_amount: string;
  payer_currency: string;
  txid: string;
  status: string;
  is_final: boolean;
}

export interface PayoutEventFields {
  uuid: string;
  order_id: string;
  amount: string;
  currency: string;
  network: string;
  address: string;
  txid: string;
  status: string;
  is_final: boolean;
}

export function buildPaymentEventBody(fields: PaymentEventFields, options: { isTest?: boolean } = {}) {
  return { type: "payment" as const, ...pick(fields, PAYMENT_KEYS), ...(options.isTest ? { is_test: true } : {}) };
}

export function buildWalletEventBody(fields: WalletEventFields, options: { isTest?: boolean } = {}) {
  return { type: "wallet" as const, ...pick(fields, WALLET_KEYS), ...(options.isTest ? { is_test: true } : {}) };
}

export function buildPayoutEventBody(fields: PayoutEventFields, options: { isTest?: boolean } = {}) {
  return { type: "payout" as const, ...pick(fields, PAYOUT_KEYS), ...(options.isTest ? { is_test: true } : {}) };
}

const PAYMENT_KEYS = ["uuid", "order_id", "amount", "currency", "payment_amount", "payer_amount", "payer_currency", "status", "is_final", "txid", "additional_data"] as const;
const WALLET_KEYS = ["uuid", "wallet_uuid", "order_id", "address", "network", "currency", "payment_amount", "payer_currency", "txid", "status", "is_final"] as const;
const PAYOUT_KEYS = ["uuid", "order_id", "amount", "currency", "network", "address", "txid", "status", "is_final"] as const;

// Copies exactly the documented keys, in the documented order, so nothing private leaks in.
function pick<T extends object, K extends keyof T>(fields: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = fields[key];
  return out;
}

/** Payment statuses that have an event, and the event they send (spec: Events). */
export const PAYMENT_EVENT_BY_STATUS = {
  paid: "invoice.paid",
  paid_over: "invoice.paid_over",
  wrong_amount: "invoice.wrong_amount",
  cancel: "invoice.expired",
} as const;

/** Internal payout statuses that have an event, `payout.<status>` (spec: Events). */
export const PAYOUT_INTERNAL_STATUSES: readonly PayoutEventStatus[] = ["pending", "approved", "awaiting_cosign", "broadcasting", "sent", "confirmed", "failed", "cancelled"];
export type PayoutInternalStatus = PayoutEventStatus;
export { coarsePayoutStatus as toCoarsePayoutStatus, isFinalPayoutStatus, type CoarsePayoutStatus } from "@/lib/domain/payout/transition";
