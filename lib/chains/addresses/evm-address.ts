import { bytesToHex, checksumAddress, getAddress, isAddress } from "viem";
import { computeAccountHash } from "@/lib/chains/addresses/account-hash";

/** EIP-55 checksummed address of a secp256k1 public key (the same on every EVM network). */
export function formatEvmAddress(publicKey: Uint8Array): string {
  return checksumAddress(bytesToHex(computeAccountHash(publicKey)));
}

/**
 * Returns the checksummed form of an EVM address written in lower case or with a valid EIP-55
 * checksum; null otherwise. Mixed case with a wrong checksum is a typo, so it is refused.
 */
export function normalizeEvmAddress(text: string): string | null {
  if (!isAddress(text, { strict: true })) return null;
  return getAddress(text);
}
