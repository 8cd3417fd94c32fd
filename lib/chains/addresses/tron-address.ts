import { computeAccountHash } from "@/lib/chains/addresses/account-hash";
import { decodeBase58Check, encodeBase58Check } from "@/lib/chains/addresses/base58check";

/** Tron's address prefix byte; it makes every base58 address start with `T`. */
const TRON_ADDRESS_PREFIX = 0x41;

/** Base58check Tron address (`T…`, 34 characters) of a secp256k1 public key. */
export function formatTronAddress(publicKey: Uint8Array): string {
  const payload = new Uint8Array(21);
  payload[0] = TRON_ADDRESS_PREFIX;
  payload.set(computeAccountHash(publicKey), 1);
  return encodeBase58Check(payload);
}

/** The 20-byte account hash of a base58check Tron address; null when malformed. */
export function decodeTronAddress(text: string): Uint8Array | null {
  const payload = decodeBase58Check(text);
  if (!payload || payload.length !== 21 || payload[0] !== TRON_ADDRESS_PREFIX) return null;
  return payload.slice(1);
}
