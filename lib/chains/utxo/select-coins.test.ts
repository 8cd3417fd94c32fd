import { describe, expect, it } from "vitest";
import { estimateP2wpkhVsize, feeForVsize, MAX_INPUTS, selectCoins, type SpendableOutput } from "./select-coins";

const P2WPKH = 22;
const P2PKH = 25;
const P2TR = 34;

function coin(valueMinor: bigint, index = 0): SpendableOutput {
  return { txid: index.toString(16).padStart(64, "0"), vout: 0, valueMinor };
}

describe("estimateP2wpkhVsize", () => {
  it.each([
    // Reference sizes of P2WPKH spends with 72-byte signatures.
    [1, [P2WPKH], 110],
    [1, [P2WPKH, P2WPKH], 141],
    [2, [P2WPKH, P2WPKH], 209],
    [1, [P2PKH, P2WPKH], 144],
    [1, [P2TR, P2WPKH], 153],
    [3, [P2WPKH], 246],
  ])("%i inputs, output scripts %j → %i vB", (inputs, outputs, vsize) => {
    expect(estimateP2wpkhVsize(inputs, outputs)).toBe(vsize);
  });
});

describe("feeForVsize", () => {
  it.each([
    [1_000n, 141, 141n],
    [1_500n, 141, 212n], // 211.5 rounds up: we never pay below the rate
    [100_000n, 141, 14_100n],
    [0n, 141, 0n],
  ])("%i per kvB × %i vB → %i", (rate, vsize, fee) => {
    expect(feeForVsize(rate, vsize)).toBe(fee);
  });
});

describe("selectCoins", () => {
  const base = { recipientScriptLength: P2WPKH, changeScriptLength: P2WPKH, feeRatePerKvB: 10_000n, dustLimitMinor: 2_940n };

  it("takes the smallest single coin that covers amount and fee, with change", () => {
    const candidates = [coin(500_000_000n, 1), coin(60_000_000n, 2), coin(40_000_000n, 3), coin(100_000_000n, 4)];
    const selection = selectCoins({ ...base, candidates, amountMinor: 50_000_000n });
    // 141 vB at 10 sat/vB = 1410 sat; change = 60 000 000 − 50 000 000 − 1410.
    expect(selection).toEqual({ ok: true, inputs: [candidates[1]], feeMinor: 1_410n, changeMinor: 9_998_590n, vsize: 141 });
  });

  it("adds coins largest first when no single coin is enough", () => {
    const candidates = [coin(30_000_000n, 1), coin(10_000_000n, 2), coin(25_000_000n, 3)];
    const selection = selectCoins({ ...base, candidates, amountMinor: 50_000_000n });
    // Two inputs, two outputs: 209 vB → 2090 sat.
    expect(selection).toEqual({ ok: true, inputs: [candidates[0], candidates[2]], feeMinor: 2_090n, changeMinor: 4_997_910n, vsize: 209 });
  });

  it("leaves change below the dust limit to the fee", () => {
    // Without change: 110 vB → 1100 sat; with change the remainder would be 2000 − 1410 = 590 sat, dust.
    const candidates = [coin(50_002_000n, 1)];
    const selection = selectCoins({ ...base, candidates, amountMinor: 50_000_000n });
    expect(selection).toEqual({ ok: true, inputs: candidates, feeMinor: 2_000n, changeMinor: 0n, vsize: 110 });
  });

  it("pays exactly the amount plus the fee from one coin without change", () => {
    const candidates = [coin(50_001_100n, 1)];
    expect(selectCoins({ ...base, candidates, amountMinor: 50_000_000n })).toEqual({ ok: true, inputs: candidates, feeMinor: 1_100n, changeMinor: 0n, vsize: 110 });
  });

  it("reports what is missing when the coins are not enough", () => {
    const candidates = [coin(30_000_000n, 1), coin(10_000_000n, 2)];
    // Both coins without change: 178 vB → 1780 sat.
    expect(selectCoins({ ...base, candidates, amountMinor: 40_000_000n })).toEqual({ ok: false, availableMinor: 40_000_000n, requiredMinor: 40_001_780n });
    expect(selectCoins({ ...base, candidates: [], amountMinor: 1n })).toEqual({ ok: false, availableMinor: 0n, requiredMinor: 1_101n });
  });

  it("inputs plus nothing else: value in = amount + fee + change, for every choice", () => {
    const candidates = Array.from({ length: 20 }, (_, index) => coin(BigInt(1_000_000 * (index + 1) + index), index));
    for (const amountMinor of [1_000n, 999_999n, 5_000_000n, 55_555_555n, 150_000_000n]) {
      const selection = selectCoins({ ...base, candidates, amountMinor });
      if (!selection.ok) throw new Error(`no selection for ${amountMinor}`);
      const inputTotal = selection.inputs.reduce((sum, input) => sum + input.valueMinor, 0n);
      expect(inputTotal).toBe(amountMinor + selection.feeMinor + selection.changeMinor);
      expect(selection.feeMinor).toBeGreaterThanOrEqual(feeForVsize(base.feeRatePerKvB, selection.vsize));
    }
  });

  it("is deterministic whatever order the node lists the coins in", () => {
    const candidates = [coin(7_000_000n, 3), coin(7_000_000n, 1), coin(7_000_000n, 2)];
    const first = selectCoins({ ...base, candidates, amountMinor: 5_000_000n });
    const second = selectCoins({ ...base, candidates: [...candidates].reverse(), amountMinor: 5_000_000n });
    expect(first).toEqual(second);
    expect(first.ok && first.inputs).toEqual([candidates[1]]);
  });

  it(`never uses more than ${MAX_INPUTS} inputs`, () => {
    const candidates = Array.from({ length: MAX_INPUTS + 10 }, (_, index) => coin(100_000n, index));
    const selection = selectCoins({ ...base, candidates, amountMinor: 100_000n * BigInt(MAX_INPUTS + 5) });
    expect(selection.ok).toBe(false);
  });
});
