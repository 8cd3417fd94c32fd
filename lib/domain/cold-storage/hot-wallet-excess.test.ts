import { describe, expect, it } from "vitest";
import { hotWalletExcess, type HotWalletFigures } from "./hot-wallet-excess";

const base: HotWalletFigures = { ledgerHeld: 0n, chainHeld: 0n, reserved: 0n, inFlight: 0n, feeReserve: 0n, max: 0n };

describe("a hot wallet's excess over its maximum", () => {
  it.each<[string, Partial<HotWalletFigures>, bigint]>([
    ["nothing held", {}, 0n],
    ["below the maximum", { ledgerHeld: 4_000n, chainHeld: 4_000n, max: 5_000n }, 0n],
    ["exactly at the maximum", { ledgerHeld: 5_000n, chainHeld: 5_000n, max: 5_000n }, 0n],
    ["one unit above", { ledgerHeld: 5_001n, chainHeld: 5_001n, max: 5_000n }, 1n],
    ["the chain below the books: the chain counts", { ledgerHeld: 12_000n, chainHeld: 11_900n, reserved: 3_000n, max: 5_000n }, 3_900n],
    ["an unbooked top-up on chain stays", { ledgerHeld: 6_000n, chainHeld: 50_000n, max: 5_000n }, 1_000n],
    ["payouts' reserves stay on top of the maximum", { ledgerHeld: 9_000n, chainHeld: 9_000n, reserved: 4_000n, max: 5_000n }, 0n],
    ["reserves above the holdings: nothing moves", { ledgerHeld: 1_000n, chainHeld: 1_000n, reserved: 4_000n, max: 0n }, 0n],
    ["transfers on their way and the move's fee", { ledgerHeld: 10_000n, chainHeld: 10_000n, inFlight: 700n, feeReserve: 300n, max: 5_000n }, 4_000n],
    ["a maximum of 0: all that is free", { ledgerHeld: 10_000n, chainHeld: 10_000n, reserved: 2_500n, max: 0n }, 7_500n],
    ["18 decimals", { ledgerHeld: 3n * 10n ** 18n + 1n, chainHeld: 4n * 10n ** 18n, max: 10n ** 18n }, 2n * 10n ** 18n + 1n],
  ])("%s", (_name, figures, expected) => {
    expect(hotWalletExcess({ ...base, ...figures })).toBe(expected);
  });
});
