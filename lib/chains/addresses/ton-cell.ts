import { sha256 } from "@noble/hashes/sha2";

/**
 * The smallest piece of TON's cell model needed to compute contract addresses: ordinary (non-exotic)
 * level-0 cells and their representation hash (TVM whitepaper §3.1.4–3.1.5).
 */
export interface TonCell {
  /** Data bits, most significant bit first; at most 1023 bits. */
  readonly bits: readonly boolean[];
  /** Child cells, at most 4. */
  readonly refs: readonly TonCellRef[];
}

/** A child seen only through its hash and depth: enough to hash its parent. */
export interface TonCellRef {
  readonly hash: Uint8Array;
  readonly depth: number;
}

/** Appends an unsigned big-endian integer of `bitLength` bits. */
export function pushUint(bits: boolean[], value: bigint, bitLength: number): void {
  for (let i = bitLength - 1; i >= 0; i--) bits.push(((value >> BigInt(i)) & 1n) === 1n);
}

/** Appends every bit of `bytes`. */
export function pushBytes(bits: boolean[], bytes: Uint8Array): void {
  for (const byte of bytes) pushUint(bits, BigInt(byte), 8);
}

/** Depth of a cell: 0 without children, else one more than its deepest child. */
export function computeCellDepth(cell: TonCell): number {
  return cell.refs.reduce((depth, ref) => Math.max(depth, ref.depth + 1), 0);
}

/**
 * Representation hash: SHA-256 over the descriptors d1 = refs + 8·exotic + 32·level and
 * d2 = ⌈bits/8⌉ + ⌊bits/8⌋, the data padded to whole bytes (a 1 bit then 0 bits when the length is not a
 * multiple of 8), each child's depth as 2 bytes, then each child's hash.
 */
export function computeCellHash(cell: TonCell): Uint8Array {
  const bitLength = cell.bits.length;
  if (bitLength > 1023) throw new Error("A cell holds at most 1023 bits");
  if (cell.refs.length > 4) throw new Error("A cell holds at most 4 references");

  const dataLength = Math.ceil(bitLength / 8);
  const out = new Uint8Array(2 + dataLength + cell.refs.length * (2 + 32));
  // Ordinary cells only, at level 0, so the exotic and level parts of d1 are zero.
  out[0] = cell.refs.length;
  out[1] = Math.ceil(bitLength / 8) + Math.floor(bitLength / 8);
  cell.bits.forEach((bit, i) => {
    if (bit) out[2 + (i >> 3)] |= 0x80 >> (i & 7);
  });
  // Completion tag: marks where the data ends when the last byte is partial.
  if (bitLength % 8 !== 0) out[2 + (bitLength >> 3)] |= 0x80 >> (bitLength & 7);

  let offset = 2 + dataLength;
  for (const ref of cell.refs) {
    out[offset] = (ref.depth >> 8) & 0xff;
    out[offset + 1] = ref.depth & 0xff;
    offset += 2;
  }
  for (const ref of cell.refs) {
    out.set(ref.hash, offset);
    offset += 32;
  }
  return sha256(out);
}

/** Hash and depth of a cell, i.e. what its parent needs. */
export function toCellRef(cell: TonCell): TonCellRef {
  return { hash: computeCellHash(cell), depth: computeCellDepth(cell) };
}
