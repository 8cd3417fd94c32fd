/**
 * A QR code (ISO/IEC 18004) of some bytes: one byte-mode segment, error correction level M and
 * mask pattern 0, the smallest version that holds them. The general encoders choose a
 * segmentation and score all eight masks for every code; for an address or a URL neither buys
 * anything (every mask is valid, and readers take the one the format bits name), and together
 * they were most of the time. Generator polynomials and block layouts are computed once.
 */

/** The modules of a QR code, row by row: 1 dark, 0 light. */
export interface QrMatrix {
  size: number;
  version: number;
  modules: Uint8Array;
}

/** Codewords of each version (data and error correction), versions 1 to 40. */
const TOTAL_CODEWORDS = [
  26, 44, 70, 100, 134, 172, 196, 242, 292, 346, 404, 466, 532, 581, 655, 733, 815, 901, 991, 1085, 1156, 1258, 1364, 1474, 1588, 1706, 1828, 1921, 2051,
  2185, 2323, 2465, 2611, 2761, 2876, 3034, 3196, 3362, 3532, 3706,
];
/** Error-correction blocks of each version at level M. */
const BLOCKS_M = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
/** Error-correction codewords per block of each version at level M. */
const EC_PER_BLOCK_M = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28];

/** Format bits of level M (00) with mask 0: BCH(15,5) and the fixed XOR mask, computed once. */
const FORMAT_BITS = bchFormatBits((0b00 << 3) | 0);

const MAX_VERSION = 40;

function dataCodewordsOf(version: number): number {
  return TOTAL_CODEWORDS[version - 1] - BLOCKS_M[version - 1] * EC_PER_BLOCK_M[version - 1];
}

/** The smallest version whose level-M data holds a byte segment of `length` bytes; null when none does. */
function versionFor(length: number): number | null {
  for (let version = 1; version <= MAX_VERSION; version++) {
    const countBits = version < 10 ? 8 : 16;
    if (4 + countBits + 8 * length <= 8 * dataCodewordsOf(version)) return version;
  }
  return null;
}

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1, as exponent and logarithm tables.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x;
  LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];

const generators = new Map<number, Uint8Array>();

/** The Reed-Solomon generator polynomial of a degree, highest coefficient first (the leading 1 left out). */
function generatorOf(degree: number): Uint8Array {
  let found = generators.get(degree);
  if (!found) {
    let polynomial = new Uint8Array([1]);
    for (let i = 0; i < degree; i++) {
      // Multiply by (x − α^i).
      const next = new Uint8Array(polynomial.length + 1);
      for (let j = 0; j < polynomial.length; j++) {
        next[j] ^= polynomial[j];
        if (polynomial[j] !== 0) next[j + 1] ^= EXP[LOG[polynomial[j]] + i];
      }
      polynomial = next;
    }
    found = polynomial.subarray(1);
    generators.set(degree, found);
  }
  return found;
}

/** The error-correction codewords of one block: the remainder of data·x^degree divided by the generator. */
function errorCorrectionOf(data: Uint8Array, degree: number): Uint8Array {
  const generator = generatorOf(degree);
  const remainder = new Uint8Array(degree);
  for (const byte of data) {
    const factor = byte ^ remainder[0];
    remainder.copyWithin(0, 1);
    remainder[degree - 1] = 0;
    if (factor !== 0) {
      const logFactor = LOG[factor];
      for (let i = 0; i < degree; i++) if (generator[i] !== 0) remainder[i] ^= EXP[LOG[generator[i]] + logFactor];
    }
  }
  return remainder;
}

/** The data codewords: mode, count, the bytes, terminator and padding, as the version's capacity asks. */
function dataCodewords(bytes: Uint8Array, version: number): Uint8Array {
  const capacity = dataCodewordsOf(version);
  const out = new Uint8Array(capacity);
  let bitLength = 0;
  const put = (value: number, bits: number) => {
    for (let i = bits - 1; i >= 0; i--, bitLength++) if ((value >>> i) & 1) out[bitLength >>> 3] |= 0x80 >>> (bitLength & 7);
  };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  // Up to four terminator bits, then zero bits to the byte boundary: out is zero-filled already.
  let position = Math.ceil(Math.min(bitLength + 4, capacity * 8) / 8);
  for (let pad = 0xec; position < capacity; position++, pad ^= 0xec ^ 0x11) out[position] = pad;
  return out;
}

/** Data and error correction split into the version's blocks and interleaved, as placed in the symbol. */
function interleavedCodewords(data: Uint8Array, version: number): Uint8Array {
  const blocks = BLOCKS_M[version - 1];
  const degree = EC_PER_BLOCK_M[version - 1];
  const shortLength = Math.floor(data.length / blocks);
  const shortBlocks = blocks - (data.length % blocks);
  const dataBlocks: Uint8Array[] = [];
  const ecBlocks: Uint8Array[] = [];
  for (let block = 0, offset = 0; block < blocks; block++) {
    const length = block < shortBlocks ? shortLength : shortLength + 1;
    const slice = data.subarray(offset, offset + length);
    dataBlocks.push(slice);
    ecBlocks.push(errorCorrectionOf(slice, degree));
    offset += length;
  }
  const out = new Uint8Array(TOTAL_CODEWORDS[version - 1]);
  let position = 0;
  for (let i = 0; i <= shortLength; i++) for (const block of dataBlocks) if (i < block.length) out[position++] = block[i];
  for (let i = 0; i < degree; i++) for (const block of ecBlocks) out[position++] = block[i];
  return out;
}

/** Centres of the alignment patterns on each axis (version 2 and up). */
function alignmentCentres(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = 4 * version + 17;
  const step = size === 145 ? 26 : Math.ceil((size - 13) / (2 * count - 2)) * 2;
  const centres = [size - 7];
  for (let i = 1; i < count - 1; i++) centres.push(centres[i - 1] - step);
  centres.push(6);
  return centres.reverse();
}

/** BCH(15,5) code of the five format bits, XORed with 101010000010010. */
function bchFormatBits(data: number): number {
  let remainder = data << 10;
  for (let bit = 14; bit >= 10; bit--) if ((remainder >>> bit) & 1) remainder ^= 0x537 << (bit - 10);
  return ((data << 10) | remainder) ^ 0x5412;
}

/** BCH(18,6) code of the version number (versions 7 and up). */
function bchVersionBits(version: number): number {
  let remainder = version << 12;
  for (let bit = 17; bit >= 12; bit--) if ((remainder >>> bit) & 1) remainder ^= 0x1f25 << (bit - 12);
  return (version << 12) | remainder;
}

/** The QR code of the bytes; throws when they exceed a version-40 symbol (2331 bytes at level M). */
export function encodeQr(bytes: Uint8Array): QrMatrix {
  const version = versionFor(bytes.length);
  if (version === null) throw new Error(`${bytes.length} bytes do not fit in a QR code at level M`);
  const size = 4 * version + 17;
  const modules = new Uint8Array(size * size);
  const reserved = new Uint8Array(size * size);
  const set = (row: number, col: number, dark: boolean) => {
    modules[row * size + col] = dark ? 1 : 0;
    reserved[row * size + col] = 1;
  };

  // Finder patterns with their light separators.
  for (const [top, left] of [
    [0, 0],
    [0, size - 7],
    [size - 7, 0],
  ]) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        const row = top + r;
        const col = left + c;
        if (row < 0 || row >= size || col < 0 || col >= size) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        set(row, col, ring !== 2 && ring !== 4);
      }
    }
  }
  // Timing patterns.
  for (let i = 8; i < size - 8; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  // Alignment patterns, except where they would cover a finder.
  const centres = alignmentCentres(version);
  for (const row of centres) {
    for (const col of centres) {
      if ((row === 6 && col === 6) || (row === 6 && col === size - 7) || (row === size - 7 && col === 6)) continue;
      for (let r = -2; r <= 2; r++) for (let c = -2; c <= 2; c++) set(row + r, col + c, Math.max(Math.abs(r), Math.abs(c)) !== 1);
    }
  }
  // Format information, twice, and the dark module beside it.
  for (let i = 0; i < 15; i++) {
    const dark = ((FORMAT_BITS >>> i) & 1) === 1;
    if (i < 6) set(i, 8, dark);
    else if (i < 8) set(i + 1, 8, dark);
    else set(size - 15 + i, 8, dark);
    if (i < 8) set(8, size - i - 1, dark);
    else if (i < 9) set(8, 15 - i, dark);
    else set(8, 14 - i, dark);
  }
  set(size - 8, 8, true);
  // Version information, twice (version 7 and up).
  if (version >= 7) {
    const bits = bchVersionBits(version);
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = Math.floor(i / 3);
      const b = (i % 3) + size - 11;
      set(a, b, dark);
      set(b, a, dark);
    }
  }

  // The codewords, two columns at a time in a zigzag from the bottom right, skipping the vertical
  // timing column; mask 0 ((row + column) even) applied to every module placed, remainder bits too.
  const codewords = interleavedCodewords(dataCodewords(bytes, version), version);
  let bitIndex = 0;
  let upward = true;
  for (let right = size - 1; right > 0; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const row = upward ? size - 1 - step : step;
      for (let c = 0; c < 2; c++) {
        const col = right - c;
        const index = row * size + col;
        if (reserved[index]) continue;
        const byte = bitIndex >>> 3;
        const bit = byte < codewords.length ? (codewords[byte] >>> (7 - (bitIndex & 7))) & 1 : 0;
        bitIndex++;
        modules[index] = bit ^ ((row + col) % 2 === 0 ? 1 : 0);
      }
    }
    upward = !upward;
  }
  return { size, version, modules };
}
