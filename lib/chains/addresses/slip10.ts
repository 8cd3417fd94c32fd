import { hmac } from "@noble/hashes/hmac";
import { sha512 } from "@noble/hashes/sha2";

const HARDENED_OFFSET = 0x80000000;
const ED25519_SEED_KEY = new TextEncoder().encode("ed25519 seed");

/** A SLIP-10 ed25519 node: the 32-byte private key seed and the chain code. */
export interface Slip10Node {
  readonly privateKey: Uint8Array;
  readonly chainCode: Uint8Array;
}

/** Parses `m/44'/501'/0'/0'` into child indexes; every level must be hardened for ed25519. */
export function parseHardenedPath(path: string): number[] {
  const parts = path.split("/");
  if (parts[0] !== "m") throw new Error(`Derivation path must start with "m": ${path}`);
  return parts.slice(1).map((part) => {
    const match = /^(\d+)'$/.exec(part);
    // SLIP-10 defines no public (non-hardened) derivation for ed25519.
    if (!match) throw new Error(`ed25519 derivation needs hardened levels only: ${path}`);
    const index = Number(match[1]);
    if (index >= HARDENED_OFFSET) throw new Error(`Child index out of range in ${path}`);
    return index;
  });
}

/** Derives the SLIP-10 ed25519 node at `path` (hardened levels only) from a BIP-39 seed. */
export function deriveSlip10Ed25519(seed: Uint8Array, path: string): Slip10Node {
  const indexes = parseHardenedPath(path);
  let digest = hmac(sha512, ED25519_SEED_KEY, seed);
  let node: Slip10Node = { privateKey: digest.slice(0, 32), chainCode: digest.slice(32) };
  for (const index of indexes) {
    // Hardened child: HMAC-SHA512(chainCode, 0x00 || privateKey || ser32(index + 2^31)).
    const data = new Uint8Array(37);
    data.set(node.privateKey, 1);
    new DataView(data.buffer).setUint32(33, index + HARDENED_OFFSET, false);
    digest = hmac(sha512, node.chainCode, data);
    node = { privateKey: digest.slice(0, 32), chainCode: digest.slice(32) };
  }
  return node;
}
