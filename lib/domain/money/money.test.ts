import { describe, expect, it } from "vitest";
import { formatAmount, parseAmount, rescaleDown } from "./amount";
import { convertMinor, divideRatios, formatRatio, mulDivDown, mulDivUp, parseRatio } from "./ratio";

describe("parseAmount", () => {
  it.each([
    ["10.5", 6, 10500000n],
    ["0", 2, 0n],
    ["0.000000000000000001", 18, 1n],
    ["123", 0, 123n],
    ["1.50", 1, 15n],
    ["100000000000000000000", 18, 100000000000000000000000000000000000000n],
  ])("%s with %i decimals → %s", (text, decimals, expected) => {
    expect(parseAmount(text, decimals)).toBe(expected);
  });

  it("refuses amounts beyond what a 78-digit column holds", () => {
    expect(parseAmount("9".repeat(78), 0)).toBe(10n ** 78n - 1n);
    expect(parseAmount("1" + "0".repeat(78), 0)).toBeNull();
    expect(parseAmount("1" + "0".repeat(70), 18)).toBeNull();
  });

  it.each([["1.234", 2], ["-1", 2], ["1e5", 2], [" 1", 2], ["1.", 2], [".5", 2], ["", 2], ["1,5", 2], ["0x10", 2], ["12.5", 0]])(
    "refuses %s at %i decimals",
    (text, decimals) => {
      expect(parseAmount(text, decimals)).toBeNull();
    },
  );
});

describe("formatAmount", () => {
  it.each([
    [10500000n, 6, 0, "10.5"],
    [1n, 18, 0, "0.000000000000000001"],
    [1050n, 2, 2, "10.50"],
    [1000n, 2, 2, "10.00"],
    [1000n, 2, 0, "10"],
    [5n, 0, 0, "5"],
    [-150n, 2, 2, "-1.50"],
  ])("%s at %i decimals (min %i) → %s", (minor, decimals, minFraction, expected) => {
    expect(formatAmount(minor, decimals, minFraction)).toBe(expected);
  });

  it("round-trips", () => {
    for (const text of ["0.1", "123.456789", "999999999999.999999"]) {
      expect(formatAmount(parseAmount(text, 6)!, 6)).toBe(text);
    }
  });

  it("rescales down", () => {
    expect(rescaleDown(123456n, 6, 2)).toBe(12n);
    expect(rescaleDown(12n, 2, 6)).toBe(120000n);
  });
});

describe("ratios", () => {
  it("rounds in the named direction", () => {
    expect(mulDivDown(10n, 2n, 3n)).toBe(6n);
    expect(mulDivUp(10n, 2n, 3n)).toBe(7n);
    expect(mulDivUp(9n, 2n, 3n)).toBe(6n);
    expect(mulDivUp(0n, 2n, 3n)).toBe(0n);
    expect(() => mulDivDown(1n, 1n, 0n)).toThrow(RangeError);
  });

  it("parses and divides exactly", () => {
    expect(parseRatio("64012.5")).toEqual({ numerator: 640125n, denominator: 10n });
    expect(parseRatio("0")).toBeNull();
    expect(parseRatio("-1")).toBeNull();
    expect(formatRatio(divideRatios(parseRatio("3000")!, parseRatio("1.0002")!), 8)).toBe("2999.40011998");
    expect(formatRatio({ numerator: 2n, denominator: 3n }, 4)).toBe("0.6667");
    expect(formatRatio({ numerator: 5n, denominator: 1n }, 4)).toBe("5");
  });

  it("converts between assets with the stated rounding", () => {
    // 5.00 USD into BTC at 64000 USD/BTC: 0.000078125 BTC → 7812.5 sat
    const usd = { decimals: 2, price: parseRatio("1")! };
    const btc = { decimals: 8, price: parseRatio("64000")! };
    expect(convertMinor(500n, usd, btc, "up")).toBe(7813n);
    expect(convertMinor(500n, usd, btc, "down")).toBe(7812n);
    // 1 ETH (18 decimals) at 3000 USD → 300000 cents exactly
    const eth = { decimals: 18, price: parseRatio("3000")! };
    expect(convertMinor(10n ** 18n, eth, usd, "down")).toBe(300000n);
    // JPY has 0 decimals: 1000 JPY at 0.0067 USD/JPY → 6.70 USD
    const jpy = { decimals: 0, price: parseRatio("0.0067")! };
    expect(convertMinor(1000n, jpy, usd, "down")).toBe(670n);
  });
});
