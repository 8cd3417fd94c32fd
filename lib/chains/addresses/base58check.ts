import bs58 from "bs58";
import { sha256 } from "@noble/hashes/sha2";

const CHECKSUM_LENGTH = 4;

function checksumOf(payload: Uint8Array): Uint8Array {
  return sha256(sha256(payload)).subarray(0, CHECKSUM_LENGTH);
}

/** Encodes a payload (version byte(s) + body) as base58 with the 4-byte double-SHA-256 checksum. */
export function encodeBase58Check(payload: Uint8Array): string {
  const bytes = new Uint8Array(payload.length + CHECKSUM_LENGTH);
  bytes.set(payload);
  bytes.set(checksumOf(payload), payload.length);
  return bs58.encode(bytes);
}

/** Decodes base58check text to its payload; null when the text is not base58 or the checksum fails. */
export function decodeBase58Check(text: string): Uint8Array | null {
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(text);
  } catch {
    return null;
  }
  if (bytes.length <= CHECKSUM_LENGTH) return null;
  const payload = bytes.subarray(0, bytes.length - CHECKSUM_LENGTH);
  const expected = checksumOf(payload);
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    if (bytes[payload.length + i] !== expected[i]) return null;
  }
  return payload;
}
