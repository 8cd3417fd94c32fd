/**
 * Exact rational arithmetic for rates and percentages: a rate is a fraction of two bigints,
 * never a float. Rounding direction is explicit in every function name.
 */
import { parseDecimal } from "./decimal";
export interface Ratio {
  numerator: bigint;
  /** Always positive. */
  denominator: bigint;
}

/** Parses a positive decimal string such as "64012.5" into an exact ratio; null if not one. */
export function parseRatio(text: string): Ratio | null {
  const value = parseDecimal(text.trim(), { plain: true });
  if (!value || value.digits === 0n) return null;
  return { numerator: value.digits, denominator: 10n ** BigInt(value.scale) };
}

/** a × b ÷ c rounded toward zero (for non-negative inputs: down). Example: mulDivDown(10n, 2n, 3n) → 6n. */
export function mulDivDown(a: bigint, b: bigint, c: bigint): bigint {
  if (c <= 0n) throw new RangeError("divisor must be positive");
  return (a * b) / c;
}

/** a × b ÷ c rounded up (for non-negative inputs). Example: mulDivUp(10n, 2n, 3n) → 7n. */
export function mulDivUp(a: bigint, b: bigint, c: bigint): bigint {
  if (c <= 0n) throw new RangeError("divisor must be positive");
  const product = a * b;
  return product === 0n ? 0n : (product + c - 1n) / c;
}

/** The ratio a/b ÷ c/d. */
export function divideRatios(a: Ratio, b: Ratio): Ratio {
  return { numerator: a.numerator * b.denominator, denominator: a.denominator * b.numerator };
}

/** Formats a ratio as a decimal string with `digits` fraction digits, rounded half up, trailing zeros trimmed. */
export function formatRatio(ratio: Ratio, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const scaled = (ratio.numerator * scale * 2n + ratio.denominator) / (ratio.denominator * 2n);
  const text = scaled.toString().padStart(digits + 1, "0");
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * Converts an amount between units priced in a common currency (USD):
 * minor units of `from` (fromDecimals, priced at fromPrice per whole unit) into minor
 * units of `to` (toDecimals, priced at toPrice), rounded in the stated direction.
 */
export function convertMinor(
  amountMinor: bigint,
  from: { decimals: number; price: Ratio },
  to: { decimals: number; price: Ratio },
  rounding: "up" | "down",
): bigint {
  // amount/10^fd × fromPrice ÷ toPrice × 10^td
  const numerator = amountMinor * from.price.numerator * to.price.denominator * 10n ** BigInt(to.decimals);
  const denominator = from.price.denominator * to.price.numerator * 10n ** BigInt(from.decimals);
  return rounding === "up" ? mulDivUp(numerator, 1n, denominator) : mulDivDown(numerator, 1n, denominator);
}
