import { describe, expect, it } from "vitest";
import { classifyAmount, decideInvoice, type InvoiceState } from "./transition";

const now = new Date("2026-06-01T12:00:00Z");
const later = new Date("2026-06-01T13:00:00Z");
const base: InvoiceState = {
  status: "check",
  expectedMinor: 10_000_000n,
  accuracyBps: 0,
  isPaymentMultiple: true,
  expiresAt: later,
  settledMinor: 0n,
  fee: { percentBps: 150, fixedMinor: 300_000n },
};
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
    ["paid is final", { ...base, status: "paid", settledMinor: 20_000_000n }, totals(20_000_000n), later, "paid", false],
    ["cancel is final", { ...base, status: "cancel", settledMinor: 10_000_000n }, totals(10_000_000n), later, "cancel", false],
    ["money after cancel is still settled", { ...base, status: "cancel" }, totals(10_000_000n), later, "cancel", true],
  ] as const)("%s", (_label, state, given, at, status, shouldSettle) => {
    const decision = decideInvoice(state as InvoiceState, given, at);
    expect(decision.status).toBe(status);
    expect(decision.settlement !== null).toBe(shouldSettle);
  });

  it("settles what was received, with 1.5 % rounded up plus the fixed part on the first settlement", () => {
    expect(decideInvoice(base, totals(10_000_000n), now)).toEqual({
      status: "paid",
      isFinal: true,
      settlement: { receivedMinor: 10_000_000n, feeMinor: 150_000n + 300_000n },
      eventType: "invoice.paid",
      shouldSendReceipt: true,
    });
  });

  it("settles a late payment to a final invoice without the fixed part, and without a new event", () => {
    const paid = { ...base, status: "paid" as const, settledMinor: 10_000_000n };
    expect(decideInvoice(paid, totals(10_000_001n), later)).toEqual({
      status: "paid",
      isFinal: true,
      settlement: { receivedMinor: 1n, feeMinor: 1n },
      eventType: null,
      shouldSendReceipt: false,
    });
    expect(decideInvoice(paid, totals(10_000_000n), later).settlement).toBeNull();
  });

  it("takes the fixed part again after a reorganisation took every settlement back", () => {
    const reopened = { ...base, status: "check" as const, settledMinor: 0n };
    expect(decideInvoice(reopened, totals(12_000_000n), now).settlement).toEqual({ receivedMinor: 12_000_000n, feeMinor: 180_000n + 300_000n });
  });

  it("never takes more fee than was received", () => {
    const small = { ...base, isPaymentMultiple: false, expectedMinor: 1_000n };
    expect(decideInvoice(small, totals(100n), now)).toMatchObject({ status: "wrong_amount", settlement: { receivedMinor: 100n, feeMinor: 100n } });
  });

  it.each([
    ["cancel", totals(0n), later, "invoice.expired", false],
    ["wrong_amount", totals(4_000_000n), later, "invoice.wrong_amount", false],
    ["paid_over", totals(12_000_000n), now, "invoice.paid_over", true],
  ] as const)("announces %s with its event", (status, given, at, eventType, receipt) => {
    expect(decideInvoice({ ...base, status: "wrong_amount_waiting" }, given, at)).toMatchObject({ status, eventType, shouldSendReceipt: receipt });
  });
});
