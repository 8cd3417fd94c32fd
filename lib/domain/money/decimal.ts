/**
 * Exact decimals: a value is an integer `digits` scaled by `10^-scale`, so `{ digits: 12345n,
 * scale: 2 }` is 123.45. The one parser of decimal text in the program: amounts (amount.ts) and
 * rates (ratio.ts) are read through it. No floating point is involved anywhere.
 */

/** An exact decimal number: `digits / 10^scale`, with `scale >= 0`. */
export interface ExactDecimal {
  digits: bigint;
  scale: number;
}

/** Longest text `parseDecimal` accepts; rate strings are far shorter, this only bounds the work. */
const MAX_TEXT_LENGTH = 400;
/** Largest |exponent| and resulting scale accepted, so a hostile "1e999999" cannot allocate a huge bigint. */
const MAX_EXPONENT = 400;

const DECIMAL_PATTERN = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
/** Plain notation: digits, optionally a point and more digits; no sign, no exponent. */
const PLAIN_PATTERN = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal string such as `"96153.8461"`, `"-0.5"`, `".25"` or `"1.04E-5"` exactly;
 * with `plain`, only unsigned plain notation (`"10.5"`), as amounts and prices arrive in the API.
 * Returns null for anything else (empty text, spaces, `"NaN"`, `"1,5"`, hex, too long).
 *
 * Example: `parseDecimal("0.0000104")` → `{ digits: 104n, scale: 7 }`.
 */
export function parseDecimal(text: string, options: { plain?: boolean } = {}): ExactDecimal | null {
  if (text.length > MAX_TEXT_LENGTH) {
    return null;
  }
  if (options.plain) {
    const plain = PLAIN_PATTERN.exec(text);
    if (plain === null) return null;
    const fraction = plain[2] ?? "";
    return { digits: BigInt(plain[1] + fraction), scale: fraction.length };
  }
  const match = DECIMAL_PATTERN.exec(text);
  if (match === null) {
    return null;
  }
  const [, sign, integerPart, fractionAfterInteger, fractionOnly, exponentText] = match;
  const fraction = fractionOnly ?? fractionAfterInteger ?? "";
  const exponent = exponentText === undefined ? 0 : Number.parseInt(exponentText, 10);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_EXPONENT) {
    return null;
  }
  const magnitude = BigInt(`${integerPart ?? ""}${fraction}` || "0");
  const digits = sign === "-" ? -magnitude : magnitude;
  const scale = fraction.length - exponent;
  if (scale < 0) {
    return { digits: digits * 10n ** BigInt(-scale), scale: 0 };
  }
  return { digits, scale };
}

/**
 * Writes a decimal in canonical plain form: no exponent, no trailing fraction zeros, no "+" sign,
 * `"0"` for zero. Example: `formatDecimal({ digits: 150n, scale: 2 })` → `"1.5"`.
 */
export function formatDecimal(value: ExactDecimal): string {
  const { digits, scale } = normalizeDecimal(value);
  const isNegative = digits < 0n;
  const magnitude = (isNegative ? -digits : digits).toString();
  if (scale === 0) {
    return `${isNegative ? "-" : ""}${magnitude}`;
  }
  const padded = magnitude.padStart(scale + 1, "0");
  const integerPart = padded.slice(0, padded.length - scale);
  const fractionPart = padded.slice(padded.length - scale);
  return `${isNegative ? "-" : ""}${integerPart}.${fractionPart}`;
}

/**
 * Removes trailing zero fraction digits, so equal values have equal representations.
 * Example: `{ digits: 1500n, scale: 3 }` → `{ digits: 15n, scale: 1 }`.
 */
export function normalizeDecimal(value: ExactDecimal): ExactDecimal {
  let { digits, scale } = value;
  if (digits === 0n) {
    return { digits: 0n, scale: 0 };
  }
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n;
    scale -= 1;
  }
  return { digits, scale };
}

/**
 * Computes `1 / value` rounded half-up (ties away from zero) to exactly `fractionDigits` fraction digits.
 * Throws RangeError for zero. Example: `reciprocalDecimal({ digits: 3n, scale: 0 }, 4)` →
 * `{ digits: 3333n, scale: 4 }` (0.3333); `reciprocalDecimal({ digits: 8n, scale: 0 }, 2)` → 0.13 (0.125 rounds up).
 */
export function reciprocalDecimal(value: ExactDecimal, fractionDigits: number): ExactDecimal {
  if (!Number.isInteger(fractionDigits) || fractionDigits < 0 || fractionDigits > MAX_EXPONENT) {
    throw new RangeError(`fractionDigits must be an integer from 0 to ${MAX_EXPONENT}`);
  }
  if (value.digits === 0n) {
    throw new RangeError("reciprocal of zero");
  }
  const isNegative = value.digits < 0n;
  const divisor = isNegative ? -value.digits : value.digits;
  // 1 / (digits / 10^scale) = 10^scale / digits; scaled by 10^fractionDigits to keep that many digits.
  const dividend = 10n ** BigInt(value.scale + fractionDigits);
  const quotient = dividend / divisor;
  const remainder = dividend % divisor;
  // Half-up on the magnitude: a remainder of at least half the divisor rounds away from zero.
  const rounded = remainder * 2n >= divisor ? quotient + 1n : quotient;
  return { digits: isNegative ? -rounded : rounded, scale: fractionDigits };
}

/** Compares two decimals exactly: -1, 0 or 1. */
export function compareDecimal(left: ExactDecimal, right: ExactDecimal): -1 | 0 | 1 {
  const scale = Math.max(left.scale, right.scale);
  const leftDigits = left.digits * 10n ** BigInt(scale - left.scale);
  const rightDigits = right.digits * 10n ** BigInt(scale - right.scale);
  return leftDigits < rightDigits ? -1 : leftDigits > rightDigits ? 1 : 0;
}
