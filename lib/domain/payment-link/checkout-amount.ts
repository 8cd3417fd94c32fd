import { formatAmount, parseAmount } from "@/lib/domain/money/amount";

/** Digits before the point of a payment link's amounts (a quadrillion is no one's checkout). */
export const MAX_WHOLE_DIGITS = 15;

/** The largest amount with `MAX_WHOLE_DIGITS` whole digits, in minor units. */
export function largestLinkAmount(decimals: number): bigint {
  return 10n ** BigInt(MAX_WHOLE_DIGITS + decimals) - 1n;
}

/** Why a buyer's amount for an `open` or `range` link is refused. */
export type CheckoutAmountProblem = "required" | "not_number" | "too_precise" | "not_positive" | "below_min" | "above_max";

export type CheckoutAmountCheck = { ok: true; amount: string } | { ok: false; problem: CheckoutAmountProblem };

/**
 * The buyer's amount against a link's limits, in minor units of the price currency: the same rule
 * for the checkout operation and for the checkout page as the buyer types. `min` and `max` are the
 * link's decimal strings (null when the link sets none).
 */
export function checkCheckoutAmount(text: string | undefined, limits: { decimals: number; min: string | null; max: string | null }): CheckoutAmountCheck {
  if (text === undefined || text.trim() === "") return { ok: false, problem: "required" };
  const minor = parseAmount(text, limits.decimals);
  if (minor === null) {
    // Digits with more places than the currency has is a different mistake from "not a number".
    return { ok: false, problem: /^\d+\.\d+$/.test(text) ? "too_precise" : "not_number" };
  }
  if (minor <= 0n) return { ok: false, problem: "not_positive" };
  if (limits.min !== null && minor < parseAmount(limits.min, limits.decimals)!) return { ok: false, problem: "below_min" };
  if (limits.max !== null && minor > parseAmount(limits.max, limits.decimals)!) return { ok: false, problem: "above_max" };
  if (minor > largestLinkAmount(limits.decimals)) return { ok: false, problem: "above_max" };
  return { ok: true, amount: formatAmount(minor, limits.decimals) };
}

/** A price as buyers read it: every decimal of the currency shown ("5" → "5.00" for USD). */
export function toPriceText(amount: string, decimals: number): string {
  const minor = parseAmount(amount, decimals);
  return minor === null ? amount : formatAmount(minor, decimals, decimals);
}
