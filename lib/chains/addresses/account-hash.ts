import * as ecc from "@bitcoinerlab/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";

/**
 * The 20-byte account hash shared by EVM and Tron: the last 20 bytes of keccak-256 over the
 * uncompressed secp256k1 public key without its 0x04 prefix. Accepts a compressed or uncompressed key;
 * an uncompressed one is hashed as given, callers pass points the curve arithmetic made.
 */
export function computeAccountHash(publicKey: Uint8Array): Uint8Array {
  // BIP-32 nodes hold compressed keys; the hash is defined over the uncompressed point.
  const uncompressed = publicKey.length === 65 && publicKey[0] === 0x04 ? publicKey : ecc.pointCompress(publicKey, false);
  return keccak_256(uncompressed.subarray(1)).slice(12);
}
