import { describe, expect, it } from "vitest";
import { compareDecimal, formatDecimal, normalizeDecimal, parseDecimal, reciprocalDecimal } from "@/lib/domain/money/decimal";

describe("parseDecimal", () => {
  it.each([
    ["0", 0n, 0],
    ["1", 1n, 0],
    ["1.0", 10n, 1],
    ["0.0000104", 104n, 7],
    ["96153.8461", 961538461n, 4],
    ["-0.5", -5n, 1],
    ["+2.50", 250n, 2],
    [".25", 25n, 2],
    ["5.", 5n, 0],
    ["1.04E-5", 104n, 7],
    ["1.5e3", 1500n, 0],
    ["12e-2", 12n, 2],
    ["000123.4500", 1234500n, 4],
    ["123456789012345678901234567890.123456789012345678901234567890", 123456789012345678901234567890123456789012345678901234567890n, 30],
  ])("%s → digits %s, scale %i", (text, digits, scale) => {
    expect(parseDecimal(text)).toEqual({ digits, scale });
  });

  it.each(["", " 1", "1 ", "abc", "NaN", "Infinity", "1,5", "0x10", "1e", "e5", ".", "-", "1.2.3", "1e-401", "1e401", "١٢"])(
    "rejects %j",
    (text) => {
      expect(parseDecimal(text)).toBeNull();
    },
  );

  it("rejects absurdly long text", () => {
    expect(parseDecimal("1".repeat(401))).toBeNull();
  });
});

describe("formatDecimal", () => {
  it.each([
    [0n, 0, "0"],
    [0n, 5, "0"],
    [1500n, 3, "1.5"],
    [1n, 18, "0.000000000000000001"],
    [-5n, 1, "-0.5"],
    [1234500n, 4, "123.45"],
    [96153846153846153846154n, 18, "96153.846153846153846154"],
    [10n ** 30n, 0, "1000000000000000000000000000000"],
  ])("%s × 10^-%i → %s", (digits, scale, expected) => {
    expect(formatDecimal({ digits, scale })).toBe(expected);
  });

  it("round-trips parse → format in canonical form", () => {
    expect(formatDecimal(parseDecimal("0001.2300") ?? { digits: 0n, scale: 0 })).toBe("1.23");
    expect(formatDecimal(parseDecimal("1.04E-5") ?? { digits: 0n, scale: 0 })).toBe("0.0000104");
  });
});

describe("normalizeDecimal", () => {
  it.each([
    [1500n, 3, 15n, 1],
    [100n, 2, 1n, 0],
    [100n, 0, 100n, 0],
    [0n, 7, 0n, 0],
    [-120n, 2, -12n, 1],
  ])("%s × 10^-%i → %s × 10^-%i", (digits, scale, expectedDigits, expectedScale) => {
    expect(normalizeDecimal({ digits, scale })).toEqual({ digits: expectedDigits, scale: expectedScale });
  });
});

describe("reciprocalDecimal", () => {
  it.each([
    ["3", 4, "0.3333"],
    ["8", 2, "0.13"], // 0.125: a tie rounds half-up
    ["8", 3, "0.125"],
    ["6", 0, "0"], // 0.1666… rounds down at 0 digits
    ["2", 0, "1"], // 0.5 ties up
    ["0.0000104", 18, "96153.846153846153846154"],
    ["0.5", 18, "2"],
    ["1.0", 18, "1"],
    ["148.9", 18, "0.006715916722632639"],
    ["-8", 2, "-0.13"], // ties away from zero
    ["1e20", 18, "0"], // below the precision: rounds to zero, the caller decides
  ] as const)("1 / %s to %i digits = %s", (text, fractionDigits, expected) => {
    const value = parseDecimal(text);
    if (value === null) throw new Error("bad test input");
    const result = reciprocalDecimal(value, fractionDigits);
    expect(result.scale).toBe(fractionDigits);
    expect(formatDecimal(result)).toBe(expected);
  });

  it("keeps the exact digits at the requested scale", () => {
    expect(reciprocalDecimal({ digits: 3n, scale: 0 }, 4)).toEqual({ digits: 3333n, scale: 4 });
  });

  it("refuses zero and bad digit counts", () => {
    expect(() => reciprocalDecimal({ digits: 0n, scale: 3 }, 18)).toThrow(RangeError);
    expect(() => reciprocalDecimal({ digits: 1n, scale: 0 }, -1)).toThrow(RangeError);
    expect(() => reciprocalDecimal({ digits: 1n, scale: 0 }, 1.5)).toThrow(RangeError);
  });
});

describe("compareDecimal", () => {
  it.each([
    ["1", "1.000", 0],
    ["0.1", "0.09", 1],
    ["-1", "0", -1],
    ["96153.846", "96153.8461", -1],
  ] as const)("compare(%s, %s) = %i", (left, right, expected) => {
    const a = parseDecimal(left);
    const b = parseDecimal(right);
    if (a === null || b === null) throw new Error("bad test input");
    expect(compareDecimal(a, b)).toBe(expected);
  });
});
