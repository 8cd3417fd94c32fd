import type { PublicPaymentObject } from "./types";

import type { PaymentStatus } from "@/lib/domain/invoice/status";

export type { PaymentStatus };

/** How a status looks: the colour family of its panel. */
export type StatusTone =
  /** Nothing to do or nothing more to happen. */
  | "neutral"
  /** Waiting for the buyer's payment. */
  | "waiting"
  /** Payment on its way, confirmations counting. */
  | "progress"
  /** The store has its money. */
  | "success"
  /** The buyer must act: part of the amount is still due. */
  | "warning"
  /** Over, and not as it should be. */
  | "danger";

export interface StatusDescription {
  tone: StatusTone;
  /** The short sentence in the status panel and the live region. */
  headline: string;
  /** What the buyer should do or expect now. */
  detail: string;
}

/** Whether the buyer still has to send money to the deposit address. */
export function isAwaitingFunds(status: string): boolean {
  return status === "check" || status === "wrong_amount_waiting";
}

/** Paid within tolerance or more: the store got its money. */
export function isSuccessful(status: string): boolean {
  return status === "paid" || status === "paid_over";
}

/** The status of a payment in words a buyer understands. */
export function describeStatus(payment: Pick<PublicPaymentObject, "payment_status" | "confirmations" | "required_confirmations" | "amount_remaining" | "amount_paid" | "payer_amount" | "payer_currency">): StatusDescription {
  const coin = payment.payer_currency;
  switch (payment.payment_status as PaymentStatus) {
    case "select":
      return { tone: "neutral", headline: "Not paid yet", detail: "Choose a coin and a network below to get the exact amount and a deposit address." };
    case "check":
      return { tone: "waiting", headline: "Waiting for payment", detail: "This page updates by itself as soon as your payment appears on the network." };
    case "confirm_check": {
      const required = Math.max(1, payment.required_confirmations);
      const confirmations = Math.min(payment.confirmations, required);
      return {
        tone: "progress",
        headline: `Payment seen — ${confirmations} of ${required} confirmation${required === 1 ? "" : "s"}`,
        detail: "Your transaction is on its way. Nothing more to send: the payment completes once the network has confirmed it.",
      };
    }
    case "wrong_amount_waiting":
      return {
        tone: "warning",
        headline: `Partially paid — ${payment.amount_remaining} ${coin} still due`,
        detail: "We received part of the amount. Send the rest to the same address before the time runs out.",
      };
    case "paid":
      return { tone: "success", headline: "Paid ✓", detail: "Your payment is confirmed. Thank you!" };
    case "paid_over":
      return {
        tone: "success",
        headline: "Overpaid",
        detail: `Your payment is confirmed. You sent ${payment.amount_paid} ${coin}, more than the ${payment.payer_amount} ${coin} due; contact the store about the difference.`,
      };
    case "wrong_amount":
      return {
        tone: "danger",
        headline: "Underpaid (term over)",
        detail: `The invoice expired after ${payment.amount_paid} ${coin} of ${payment.payer_amount} ${coin} arrived. Contact the store to settle the difference.`,
      };
    case "cancel":
      return { tone: "neutral", headline: "Expired", detail: "This invoice can no longer be paid. Do not send funds to its address; go back to the store to start again." };
    default:
      return { tone: "neutral", headline: "Status unavailable", detail: "Reload the page to see the latest status." };
  }
}

/** Seconds as "mm:ss", or "h:mm:ss" from one hour up. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const twoDigits = (value: number) => String(value).padStart(2, "0");
  return hours > 0 ? `${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(rest)}` : `${twoDigits(minutes)}:${twoDigits(rest)}`;
}

/** Only http(s) links from the invoice are followed; anything else is dropped. */
export function toSafeHttpUrl(value: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}
