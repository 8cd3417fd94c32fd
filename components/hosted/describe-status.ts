import type { I18n } from "@/components/i18n/i18n-provider";
import type { PublicPaymentObject } from "@/lib/services/hosted/page-data";

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

/** The status of a payment in words a buyer understands, in the page's language. */
export function describeStatus(
  payment: Pick<PublicPaymentObject, "payment_status" | "confirmations" | "required_confirmations" | "amount_remaining" | "amount_paid" | "payer_amount" | "payer_currency">,
  { t, amount }: Pick<I18n, "t" | "amount">,
): StatusDescription {
  const coin = payment.payer_currency;
  switch (payment.payment_status as PaymentStatus) {
    case "select":
      return { tone: "neutral", headline: t("payment.status.selectHeadline"), detail: t("payment.status.selectDetail") };
    case "check":
      return { tone: "waiting", headline: t("payment.status.checkHeadline"), detail: t("payment.status.checkDetail") };
    case "confirm_check": {
      const required = Math.max(1, payment.required_confirmations);
      const confirmations = Math.min(payment.confirmations, required);
      return { tone: "progress", headline: t("payment.status.confirmHeadline", { count: confirmations, required }), detail: t("payment.status.confirmDetail") };
    }
    case "wrong_amount_waiting":
      return { tone: "warning", headline: t("payment.status.partialHeadline", { remaining: amount(payment.amount_remaining), coin }), detail: t("payment.status.partialDetail") };
    case "paid":
      return { tone: "success", headline: t("payment.status.paidHeadline"), detail: t("payment.status.paidDetail") };
    case "paid_over":
      return {
        tone: "success",
        headline: t("payment.status.overpaidHeadline"),
        detail: t("payment.status.overpaidDetail", { paid: amount(payment.amount_paid), due: amount(payment.payer_amount), coin }),
      };
    case "wrong_amount":
      return {
        tone: "danger",
        headline: t("payment.status.underpaidHeadline"),
        detail: t("payment.status.underpaidDetail", { paid: amount(payment.amount_paid), due: amount(payment.payer_amount), coin }),
      };
    case "cancel":
      return { tone: "neutral", headline: t("payment.status.expiredHeadline"), detail: t("payment.status.expiredDetail") };
    default:
      return { tone: "neutral", headline: t("payment.status.unknownHeadline"), detail: t("payment.status.unknownDetail") };
  }
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
