import { bytesToHex } from "@/lib/chains/tron/tron-encoding";

// A minimal protobuf writer (hex strings in and out) for the Tron tests that need raw transaction
// data TronWeb would not produce: amounts beyond 2^53, repeated or unknown fields, negative int64s.

/** A base-128 varint; a negative value is written as its 64-bit two's complement, as protobuf writes an int64. */
function varint(value: bigint): string {
  let text = "";
  let rest = BigInt.asUintN(64, value);
  do {
    const byte = Number(rest & 0x7fn);
    rest >>= 7n;
    text += (rest > 0n ? byte | 0x80 : byte).toString(16).padStart(2, "0");
  } while (rest > 0n);
  return text;
}

/** A length-delimited field (wire type 2) holding the bytes `hex`. */
export function bytesField(number: number, hex: string): string {
  return varint(BigInt((number << 3) | 2)) + varint(BigInt(hex.length / 2)) + hex;
}

/** A varint field (wire type 0). */
export function varintField(number: number, value: bigint): string {
  return varint(BigInt(number << 3)) + varint(value);
}

/**
 * A `Transaction.raw` holding one TransferContract whose encoded fields are `transferHex`, with the
 * same ref block and expiration in every test; `extraHex` is appended after the contract field.
 */
export function transferRawHex(transferHex: string, extraHex = ""): string {
  const typeUrl = bytesToHex(new TextEncoder().encode("type.googleapis.com/protocol.TransferContract"));
  const contract = varintField(1, 1n) + bytesField(2, bytesField(1, typeUrl) + bytesField(2, transferHex));
  return bytesField(1, "531d") + bytesField(4, "ec7ec6e7c33456cc") + varintField(8, 1_767_246_285_000n) + bytesField(11, contract) + extraHex;
}
