import { findPricingCurrency } from "@/lib/catalogue";
import type { Locale } from "@/lib/i18n/locales";

const separatorsByLocale = new Map<Locale, { group: string; decimal: string }>();

/** The locale's group and decimal separators, as Intl prints them; worked out once per locale (every amount on a page asks). */
function separatorsOf(locale: Locale): { group: string; decimal: string } {
  let separators = separatorsByLocale.get(locale);
  if (!separators) {
    const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
    separators = { group: parts.find((part) => part.type === "group")?.value ?? ",", decimal: parts.find((part) => part.type === "decimal")?.value ?? "." };
    separatorsByLocale.set(locale, separators);
  }
  return separators;
}

/**
 * A decimal string from the API ("1234.500000") in the locale's notation ("1.234,500000" in
 * German), digit for digit: no float ever holds the amount, and the fraction keeps every digit the
 * API gave, since a crypto amount must be sent exactly. Anything not a plain decimal is returned as is.
 */
export function formatDecimal(locale: Locale, amount: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) return amount;
  const [, sign, whole, fraction] = match;
  const { group, decimal } = separatorsOf(locale);
  // Grouping follows the locale's own rule for a number of this size (Spanish leaves 4 digits alone).
  const sample = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Number(`1${"0".repeat(Math.min(whole.length - 1, 15))}`));
  const grouped = sample.includes(group) || whole.length > 16 ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, group) : whole;
  return `${sign}${grouped}${fraction === undefined ? "" : decimal + fraction}`;
}

/**
 * A price in a fiat currency with at least the currency's decimals ("349.9" EUR reads "349.90"),
 * as people write prices; crypto amounts and anything not a plain decimal are returned as given.
 */
export function withFiatDecimals(amount: string, currency: string): string {
  const pricing = findPricingCurrency(currency);
  const match = /^(-?\d+)(?:\.(\d*))?$/.exec(amount);
  if (!pricing?.isFiat || !match || pricing.decimals === 0) return amount;
  const fraction = match[2] ?? "";
  return fraction.length >= pricing.decimals ? amount : `${match[1]}.${fraction.padEnd(pricing.decimals, "0")}`;
}

/** A moment in the locale's medium date and short time, in the given time zone (the visitor's by default). */
export function formatDateTime(locale: Locale, iso: string | number, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  // dateStyle/timeStyle cannot be combined with timeZoneName, so a named zone spells the fields out.
  const options: Intl.DateTimeFormatOptions = timeZone
    ? { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone, timeZoneName: "short" }
    : { dateStyle: "medium", timeStyle: "short" };
  return new Intl.DateTimeFormat(locale, options).format(date);
}

/** Seconds as "mm:ss", or "hh:mm:ss" from one hour up: digits read alike in every locale. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const twoDigits = (value: number) => String(value).padStart(2, "0");
  return hours > 0 ? `${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(rest)}` : `${twoDigits(minutes)}:${twoDigits(rest)}`;
}

/**
 * A number as a visitor types it in their locale ("1.234,5" in German, "1 234,5" in French) as the
 * plain decimal string the API takes ("1234.5"). Only unambiguous notation is converted; anything
 * else comes back trimmed, for the amount check to refuse with a clear message.
 */
export function toPlainDecimal(locale: Locale, text: string): string {
  const compact = text.trim().replace(/[\s\u00a0\u202f']/g, "");
  const { decimal } = separatorsOf(locale);
  if (decimal === ",") {
    if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(compact)) return compact.replaceAll(".", "").replace(",", ".");
    if (/^\d+,\d+$/.test(compact)) return compact.replace(",", ".");
    return compact;
  }
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(compact)) return compact.replaceAll(",", "");
  return compact;
}
