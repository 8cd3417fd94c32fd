import { describe, expect, it } from "vitest";
import { classifyAmount, decideInvoice, type InvoiceState } from "./transition";

const now = new Date("2026-06-01T12:00:00Z");
const later = new Date("2026-06-01T13:00:00Z");
const base: InvoiceState = { status: "check", expectedMinor: 10_000_000n, accuracyBps: 0, isPaymentMultiple: true, expiresAt: later };
const totals = (confirmedMinor: bigint, pendingMinor = 0n) => ({ confirmedMinor, pendingMinor });

describe("classifyAmount", () => {
  it.each([
    [10_000_000n, 0, "within"],
    [9_999_999n, 0, "under"],
    [10_000_001n, 0, "over"],
    [9_950_000n, 50, "within"],
    [9_949_999n, 50, "under"],
    [10_050_000n, 50, "within"],
    [10_050_001n, 50, "over"],
    [9_500_000n, 500, "within"],
  ] as const)("%s against 10_000_000 with %i bps → %s", (received, bps, verdict) => {
    expect(classifyAmount(received, 10_000_000n, bps)).toBe(verdict);
  });
});

describe("decideInvoice", () => {
  it.each([
    ["nothing yet", base, totals(0n), now, "check", false],
    ["seen, not confirmed", base, totals(0n, 10_000_000n), now, "confirm_check", false],
    ["confirmed exact", base, totals(10_000_000n), now, "paid", true],
    ["confirmed over", base, totals(12_000_000n), now, "paid_over", true],
    ["underpaid in term", base, totals(4_000_000n), now, "wrong_amount_waiting", false],
    ["underpaid, rest confirming", base, totals(4_000_000n, 6_000_000n), now, "confirm_check", false],
    ["underpaid, no multiple payments", { ...base, isPaymentMultiple: false }, totals(4_000_000n), now, "wrong_amount", true],
    ["underpaid at term end", { ...base, status: "wrong_amount_waiting" }, totals(4_000_000n), later, "wrong_amount", true],
    ["top-up completes", { ...base, status: "wrong_amount_waiting" }, totals(10_000_000n), now, "paid", true],
    ["expired unpaid", base, totals(0n), later, "cancel", false],
    ["expired while confirming", { ...base, status: "confirm_check" }, totals(0n, 10_000_000n), later, "confirm_check", false],
    ["confirmed after the term", { ...base, status: "confirm_check" }, totals(10_000_000n), later, "paid", true],
    ["select expires", { ...base, status: "select" }, totals(0n), later, "cancel", false],
    ["select waits", { ...base, status: "select" }, totals(0n), now, "select", false],
    ["paid is final", { ...base, status: "paid" }, totals(20_000_000n), later, "paid", false],
    ["cancel is final", { ...base, status: "cancel" }, totals(10_000_000n), later, "cancel", false],
  ] as const)("%s", (_label, state, given, at, status, shouldSettle) => {
    expect(decideInvoice(state as InvoiceState, given, at)).toEqual({ status, shouldSettle });
  });
});
