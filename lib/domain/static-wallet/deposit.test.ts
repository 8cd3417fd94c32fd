import { describe, expect, it } from "vitest";
import { decideWalletDeposit, walletDepositStatus } from "./deposit";

const base: Parameters<typeof decideWalletDeposit>[0] = {
  amountMinor: 100_000_000n, // 100 units of a 6-decimal coin
  confirmations: 10,
  minimumConfirmations: 10,
  usdUnitMinor: 1_000_000n, // 1 USD = 1 unit
  tierFor: (valueUsdMinor: bigint) => (valueUsdMinor <= 100_000n ? 10 : 20),
  seenAt: new Date("2026-01-02T00:00:00Z"),
  blockedAt: null,
  fee: { percentBps: 150, fixedMinor: 300_000n },
};

describe("decideWalletDeposit", () => {
  it.each<[string, Partial<typeof base>, ReturnType<typeof decideWalletDeposit>]>([
    ["credits with the fee taken at reception", {}, { kind: "credit", feeMinor: 1_800_000n, netMinor: 98_200_000n }],
    ["waits for the network's minimum", { confirmations: 9 }, { kind: "wait" }],
    ["waits longer for a deposit worth more (2 000 USD)", { amountMinor: 2_000_000_000n, confirmations: 19 }, { kind: "wait" }],
    ["credits a large deposit once deep enough", { amountMinor: 2_000_000_000n, confirmations: 20 }, { kind: "credit", feeMinor: 30_300_000n, netMinor: 1_969_700_000n }],
    ["rounds the percentage up", { amountMinor: 1n, fee: { percentBps: 150, fixedMinor: 0n } }, { kind: "credit", feeMinor: 1n, netMinor: 0n }],
    ["never takes more than received", { amountMinor: 200_000n }, { kind: "credit", feeMinor: 200_000n, netMinor: 0n }],
    ["credits a zero-fee deposit of an 18-decimal coin whole", { amountMinor: 10n ** 18n, usdUnitMinor: 10n ** 15n, fee: { percentBps: 0, fixedMinor: 0n }, confirmations: 20 }, { kind: "credit", feeMinor: 0n, netMinor: 10n ** 18n }],
    ["holds a deposit seen after the block", { blockedAt: new Date("2026-01-01T00:00:00Z") }, { kind: "hold" }],
    ["holds a deposit seen at the moment of the block", { blockedAt: new Date("2026-01-02T00:00:00Z") }, { kind: "hold" }],
    ["credits a deposit seen before the block", { blockedAt: new Date("2026-01-03T00:00:00Z") }, { kind: "credit", feeMinor: 1_800_000n, netMinor: 98_200_000n }],
    ["makes a held deposit wait for its confirmations too", { blockedAt: new Date("2026-01-01T00:00:00Z"), confirmations: 0 }, { kind: "wait" }],
  ])("%s", (_name, overrides, expected) => {
    expect(decideWalletDeposit({ ...base, ...overrides })).toEqual(expected);
  });
});

describe("walletDepositStatus", () => {
  it.each([
    [{ status: "seen", isHeld: false, refundPayoutId: null }, "confirm_check"],
    [{ status: "confirmed", isHeld: false, refundPayoutId: null }, "paid"],
    [{ status: "confirmed", isHeld: true, refundPayoutId: null }, "held"],
    [{ status: "confirmed", isHeld: true, refundPayoutId: "p" }, "refunded"],
  ] as const)("%o → %s", (deposit, status) => {
    expect(walletDepositStatus(deposit)).toBe(status);
  });
});
