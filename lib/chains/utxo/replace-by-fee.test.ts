import { describe, expect, it } from "vitest";
import { planReplacementFee, type ReplacementInput } from "./replace-by-fee";

const stuck: ReplacementInput = {
  inputsMinor: 1_000_000n,
  amountMinor: 500_000n,
  previousFeeMinor: 1_410n,
  vsizeWithChange: 141,
  vsizeWithoutChange: 110,
  feeRatePerKvB: 10_000n,
  incrementalPerKvB: 1_000n,
  dustLimitMinor: 546n,
};

describe("the fee of a UTXO replacement", () => {
  it("meets the market when the market rose beyond the old fee and its increment", () => {
    const plan = planReplacementFee({ ...stuck, feeRatePerKvB: 50_000n });
    expect(plan).toEqual({ ok: true, feeMinor: 7_050n, changeMinor: 1_000_000n - 500_000n - 7_050n });
  });

  it("pays at least 12.5 % more than the old fee, and the increment for its size, when the market did not move", () => {
    expect(planReplacementFee(stuck)).toEqual({ ok: true, feeMinor: 1_587n, changeMinor: 498_413n });
    // A node whose increment is large: the old fee plus the increment for 141 vB.
    expect(planReplacementFee({ ...stuck, incrementalPerKvB: 5_000n })).toEqual({ ok: true, feeMinor: 1_410n + 705n, changeMinor: 500_000n - 2_115n });
  });

  it("gives change below dust to the fee, and refuses when the payment itself would have to shrink", () => {
    const tight = { ...stuck, inputsMinor: 500_000n + 1_410n + 600n };
    expect(planReplacementFee(tight)).toEqual({ ok: true, feeMinor: 2_010n, changeMinor: 0n });
    const exact = { ...stuck, inputsMinor: 500_000n + 1_410n };
    expect(planReplacementFee(exact)).toMatchObject({ ok: false });
  });
});
