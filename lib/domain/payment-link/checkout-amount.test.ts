import { describe, expect, it } from "vitest";
import { checkCheckoutAmount } from "@/lib/domain/payment-link/checkout-amount";

const range = { decimals: 2, min: "5.00", max: "500.00" };

describe("checkCheckoutAmount", () => {
  it.each([
    [undefined, range, { ok: false, problem: "required" }],
    ["  ", range, { ok: false, problem: "required" }],
    ["abc", range, { ok: false, problem: "not_number" }],
    ["-5", range, { ok: false, problem: "not_number" }],
    ["12.345", range, { ok: false, problem: "too_precise" }],
    ["12.340", range, { ok: true, amount: "12.34" }],
    ["0", { decimals: 2, min: null, max: null }, { ok: false, problem: "not_positive" }],
    ["4.99", range, { ok: false, problem: "below_min" }],
    ["5", range, { ok: true, amount: "5" }],
    ["500.00", range, { ok: true, amount: "500" }],
    ["500.01", range, { ok: false, problem: "above_max" }],
    ["1000000000000000", { decimals: 2, min: null, max: null }, { ok: false, problem: "above_max" }],
    ["999999999999999.99", { decimals: 2, min: null, max: null }, { ok: true, amount: "999999999999999.99" }],
    ["100", { decimals: 0, min: null, max: null }, { ok: true, amount: "100" }],
    ["1.5", { decimals: 0, min: null, max: null }, { ok: false, problem: "too_precise" }],
  ] as const)("%j within %j → %j", (text, limits, expected) => {
    expect(checkCheckoutAmount(text, limits)).toEqual(expected);
  });
});
