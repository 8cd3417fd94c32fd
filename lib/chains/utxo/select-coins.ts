import { mulDivUp } from "@/lib/domain/money/ratio";

/** An unspent output of the hot wallet (a P2WPKH output of its own address). */
export interface SpendableOutput {
  txid: string;
  vout: number;
  /** In minor units (satoshis). */
  valueMinor: bigint;
}

export interface SelectCoinsInput {
  /** The kind of the wallet's coins (default P2WPKH). */
  inputKind?: InputKind;
  /** The wallet's spendable outputs; those already spent by pending transactions are left out by the caller. */
  candidates: readonly SpendableOutput[];
  /** What the recipient gets, in minor units. */
  amountMinor: bigint;
  /** Length in bytes of the recipient's output script (22 for P2WPKH, 25 for P2PKH, 34 for P2TR). */
  recipientScriptLength: number;
  /** Length in bytes of the change output script (the hot wallet's own, 22 for P2WPKH). */
  changeScriptLength: number;
  /** Fee rate in minor units per 1000 virtual bytes, as nodes quote it. */
  feeRatePerKvB: bigint;
  /** Smallest output worth creating, in minor units: change below it goes to the fee. */
  dustLimitMinor: bigint;
}

export type CoinSelection =
  | {
      ok: true;
      inputs: SpendableOutput[];
      /** Fee paid to the network: the inputs minus the outputs, in minor units. */
      feeMinor: bigint;
      /** Change back to the hot wallet in minor units; 0n when there is no change output. */
      changeMinor: bigint;
      /** Virtual size the fee was computed for (an upper bound of the signed transaction's). */
      vsize: number;
    }
  | {
      ok: false;
      /** What the largest MAX_INPUTS candidates add up to, in minor units. */
      availableMinor: bigint;
      /** The amount plus the fee of spending them all, in minor units. */
      requiredMinor: bigint;
    };

/** Keeps a transaction far below the 100 000 vB standardness limit (68 vB per input). */
export const MAX_INPUTS = 500;

/** Signature (up to 72 bytes with its sighash byte) and compressed key, each with a length byte, plus the item count. */
const P2WPKH_WITNESS_WEIGHT = 1 + (1 + 72) + (1 + 33);
/** Outpoint (36), empty scriptSig length (1), sequence (4). */
const INPUT_BASE_BYTES = 36 + 1 + 4;
/** Version and lock time. */
const TRANSACTION_BASE_BYTES = 4 + 4;
/** The segwit marker and flag bytes count one weight unit each. */
const SEGWIT_MARKER_WEIGHT = 2;

function compactSizeLength(count: number): number {
  if (count < 0xfd) return 1;
  if (count <= 0xffff) return 3;
  return 5;
}

/** How the wallet's coins are locked: segwit P2WPKH, or legacy P2PKH (dogecoin has no segwit). */
export type InputKind = "p2wpkh" | "p2pkh";

/** Outpoint (36), scriptSig with a 72-byte signature and a compressed key (1 + 107), sequence (4). */
const P2PKH_INPUT_BYTES = 36 + 1 + (1 + 72) + (1 + 33) + 4;

/**
 * Size of a legacy transaction spending `inputCount` P2PKH outputs (no witness: vsize = bytes).
 * Example: 1 input, two P2PKH outputs → 226 B.
 */
export function estimateP2pkhSize(inputCount: number, outputScriptLengths: readonly number[]): number {
  const outputBytes = outputScriptLengths.reduce((sum, length) => sum + 8 + compactSizeLength(length) + length, 0);
  return TRANSACTION_BASE_BYTES + compactSizeLength(inputCount) + compactSizeLength(outputScriptLengths.length) + inputCount * P2PKH_INPUT_BYTES + outputBytes;
}

/** The virtual size of a payment from a wallet of either kind. */
export function estimateVsize(kind: InputKind, inputCount: number, outputScriptLengths: readonly number[]): number {
  return kind === "p2pkh" ? estimateP2pkhSize(inputCount, outputScriptLengths) : estimateP2wpkhVsize(inputCount, outputScriptLengths);
}

/**
 * Virtual size of a transaction spending `inputCount` P2WPKH outputs into outputs with the given
 * script lengths. Counts 72-byte signatures, the longest a low-S signer makes, so the real size is
 * never larger. Example: 1 input, two P2WPKH outputs → 141 vB.
 */
export function estimateP2wpkhVsize(inputCount: number, outputScriptLengths: readonly number[]): number {
  const outputBytes = outputScriptLengths.reduce((sum, length) => sum + 8 + compactSizeLength(length) + length, 0);
  const baseBytes =
    TRANSACTION_BASE_BYTES + compactSizeLength(inputCount) + compactSizeLength(outputScriptLengths.length) + inputCount * INPUT_BASE_BYTES + outputBytes;
  const weight = baseBytes * 4 + SEGWIT_MARKER_WEIGHT + inputCount * P2WPKH_WITNESS_WEIGHT;
  return Math.ceil(weight / 4);
}

/** Fee for `vsize` at a rate per 1000 vB; rounded up, so we never pay below the rate the node asks for. */
export function feeForVsize(feeRatePerKvB: bigint, vsize: number): bigint {
  return mulDivUp(feeRatePerKvB, BigInt(vsize), 1000n);
}

function byValueThenOutpoint(a: SpendableOutput, b: SpendableOutput): number {
  if (a.valueMinor !== b.valueMinor) return a.valueMinor < b.valueMinor ? -1 : 1;
  if (a.txid !== b.txid) return a.txid < b.txid ? -1 : 1;
  return a.vout - b.vout;
}

/**
 * Chooses the inputs of a payment and its fee and change. Prefers the smallest single output that
 * covers the payment (one input is the cheapest transaction, and large outputs stay whole for large
 * payouts); otherwise adds outputs largest first, which needs the fewest inputs. Deterministic: the
 * same wallet and payment give the same choice.
 */
export function selectCoins(input: SelectCoinsInput): CoinSelection {
  const { amountMinor, feeRatePerKvB, dustLimitMinor } = input;
  const kind = input.inputKind ?? "p2wpkh";
  const withoutChange = [input.recipientScriptLength];
  const withChange = [input.recipientScriptLength, input.changeScriptLength];
  const feeWithoutChange = (inputCount: number) => feeForVsize(feeRatePerKvB, estimateVsize(kind, inputCount, withoutChange));
  const isEnough = (total: bigint, inputCount: number) => total >= amountMinor + feeWithoutChange(inputCount);

  const ascending = [...input.candidates].sort(byValueThenOutpoint);
  const largestFirst = [...ascending].reverse().slice(0, MAX_INPUTS);
  let chosen: SpendableOutput[] | null = null;
  const single = ascending.find((candidate) => isEnough(candidate.valueMinor, 1));
  if (single) chosen = [single];
  else {
    let total = 0n;
    for (let count = 1; count <= largestFirst.length; count++) {
      total += largestFirst[count - 1].valueMinor;
      if (isEnough(total, count)) {
        chosen = largestFirst.slice(0, count);
        break;
      }
    }
  }

  if (!chosen) {
    return {
      ok: false,
      availableMinor: largestFirst.reduce((sum, candidate) => sum + candidate.valueMinor, 0n),
      requiredMinor: amountMinor + feeWithoutChange(Math.max(1, largestFirst.length)),
    };
  }

  const total = chosen.reduce((sum, candidate) => sum + candidate.valueMinor, 0n);
  const vsizeWithChange = estimateVsize(kind, chosen.length, withChange);
  const feeWithChange = feeForVsize(feeRatePerKvB, vsizeWithChange);
  const changeMinor = total - amountMinor - feeWithChange;
  if (changeMinor >= dustLimitMinor) return { ok: true, inputs: chosen, feeMinor: feeWithChange, changeMinor, vsize: vsizeWithChange };
  // Change too small to be worth an output: it goes to the fee, which is then above the rate.
  return { ok: true, inputs: chosen, feeMinor: total - amountMinor, changeMinor: 0n, vsize: estimateVsize(kind, chosen.length, withoutChange) };
}
