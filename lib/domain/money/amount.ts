/**
 * Amounts inside the program are bigints of minor units; strings at the edge.
 * This module is the one place where the two meet.
 */
import { normalizeDecimal, parseDecimal } from "./decimal";

/** The largest amount a Decimal(78,0) column holds: anything above is refused as malformed. */
export const MAX_MINOR_UNITS = 10n ** 78n - 1n;

/**
 * Parses a non-negative decimal string into minor units of an asset with `decimals` places.
 * Returns null for anything else: signs, exponents, spaces, or more fraction digits than
 * the asset has (such text is refused, never rounded). Example: ("10.5", 6) → 10500000n.
 */
export function parseAmount(text: string, decimals: number): bigint | null {
  const value = parseDecimal(text, { plain: true });
  if (!value) return null;
  // Trailing zeros beyond the asset's precision carry no value ("1.50" for a 1-decimal asset).
  const { digits, scale } = value.scale > decimals ? normalizeDecimal(value) : value;
  if (scale > decimals) return null;
  const minor = digits * 10n ** BigInt(decimals - scale);
  return minor > MAX_MINOR_UNITS ? null : minor;
}

/**
 * Formats minor units as a decimal string with at least `minFractionDigits` fraction digits
 * and no superfluous trailing zeros beyond that. Example: (10500000n, 6) → "10.5";
 * (1050n, 2, 2) → "10.50".
 */
export function formatAmount(minor: bigint, decimals: number, minFractionDigits = 0): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals);
  let end = fraction.length;
  while (end > minFractionDigits && fraction[end - 1] === "0") end--;
  fraction = fraction.slice(0, end);
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** Rescales minor units between precisions, rounding down. Example: (123456n, 6, 2) → 12n. */
export function rescaleDown(minor: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return minor * 10n ** BigInt(toDecimals - fromDecimals);
  return minor / 10n ** BigInt(fromDecimals - toDecimals);
}
