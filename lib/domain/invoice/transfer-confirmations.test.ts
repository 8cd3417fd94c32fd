import { describe, expect, it } from "vitest";
import { requiredConfirmationsForTransfer } from "./transfer-confirmations";

// A policy like bitcoin's: 1 up to 1 000 USD, 3 up to 10 000 USD, 6 above.
const tierFor = (usdMinor: bigint) => (usdMinor <= 100_000n ? 1 : usdMinor <= 1_000_000n ? 3 : 6);

describe("requiredConfirmationsForTransfer", () => {
  it.each([
    // invoice tier, transfer, invoice amount, invoice value (cents) → confirmations
    [1, 100n, 100n, 50_000n, 1],
    [1, 1_000n, 100n, 50_000n, 3], // ten times the invoice: 5 000 USD
    [1, 100_000n, 100n, 50_000n, 6], // 500 000 USD on a 500 USD invoice
    [1, 200n, 100n, 50_000n, 1], // exactly 1 000 USD: still the first tier
    [1, 201n, 100n, 50_000n, 3], // a hair above, rounded up
    [3, 1n, 100n, 50_000n, 3], // never below the invoice's own tier
    [0, 1n, 100n, 50_000n, 1], // never below one
    [1, 1_000_000n, 100n, null, 1], // no stored value: the invoice's tier
    [2, 1_000_000n, 0n, 50_000n, 2],
  ])("invoice tier %s, transfer %s of %s worth %s cents → %s", (invoiceRequired, amountMinor, payerAmountMinor, priceUsdMinor, expected) => {
    expect(requiredConfirmationsForTransfer({ invoiceRequired, amountMinor, payerAmountMinor, priceUsdMinor, tierFor })).toBe(expected);
  });

  it("prices 18-decimal amounts exactly", () => {
    // 1 ETH invoice worth 3 000 USD; 4 ETH arrive: 12 000 USD.
    const eth = 10n ** 18n;
    expect(requiredConfirmationsForTransfer({ invoiceRequired: 3, amountMinor: 4n * eth, payerAmountMinor: eth, priceUsdMinor: 300_000n, tierFor })).toBe(6);
  });
});
