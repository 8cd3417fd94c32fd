import { feeForVsize } from "./select-coins";

/** What a stuck UTXO transaction was, and what the market asks now. */
export interface ReplacementInput {
  /** What the inputs (the same coins the stuck transaction spends) hold together. */
  inputsMinor: bigint;
  /** The payment, unchanged by the replacement. */
  amountMinor: bigint;
  /** The fee the stuck transaction pays (inputs less its outputs). */
  previousFeeMinor: bigint;
  /** Sizes of the replacement with its change output and without one. */
  vsizeWithChange: number;
  vsizeWithoutChange: number;
  /** The market's rate and the node's increment for replacements, per 1000 vB. */
  feeRatePerKvB: bigint;
  incrementalPerKvB: bigint;
  dustLimitMinor: bigint;
}

export type ReplacementPlan = { ok: true; feeMinor: bigint; changeMinor: bigint } | { ok: false; reason: string };

/**
 * The fee and change of a replacement that spends the same coins and pays the same amount
 * (BIP125): it pays more than the old fee by at least the node's increment for its own size
 * (rules 3 and 4), at least 12.5 % more (the old rate was too low: a token raise would wait as
 * long), and at least the market's rate. The raise comes out of the change; change below dust
 * goes to the fee. Without change enough, the payment would have to shrink: refused.
 */
export function planReplacementFee(input: ReplacementInput): ReplacementPlan {
  const required = (vsize: number) => {
    const candidates = [
      feeForVsize(input.feeRatePerKvB, vsize),
      input.previousFeeMinor + feeForVsize(input.incrementalPerKvB, vsize),
      input.previousFeeMinor + input.previousFeeMinor / 8n + 1n,
    ];
    return candidates.reduce((a, b) => (a > b ? a : b));
  };
  const withChange = required(input.vsizeWithChange);
  const changeMinor = input.inputsMinor - input.amountMinor - withChange;
  if (changeMinor >= input.dustLimitMinor) return { ok: true, feeMinor: withChange, changeMinor };
  const withoutChange = input.inputsMinor - input.amountMinor;
  if (withoutChange >= required(input.vsizeWithoutChange)) return { ok: true, feeMinor: withoutChange, changeMinor: 0n };
  return { ok: false, reason: `a replacement needs a fee of ${required(input.vsizeWithoutChange)}, the coins leave ${withoutChange} beside the payment` };
}
