import { secp256k1 } from "@noble/curves/secp256k1";
import { sha256 } from "@noble/hashes/sha2";
import { formatTronAddress } from "@/lib/chains/addresses/tron-address";
import { bytesToHex, hexToBytes } from "@/lib/chains/tron/tron-encoding";

/**
 * Local TRON signing. A transaction id is sha256 of the serialized `raw_data`, and a signature is
 * the recoverable secp256k1 signature of that id: r ‖ s ‖ v (65 bytes, v = 27 + recovery id, as
 * java-tron's ECKey and TronWeb write it). Nothing here talks to a node.
 */

/** The transaction id of `raw_data_hex`: lower-case hex of its sha256. */
export function computeTronTxId(rawDataHex: string): string {
  return bytesToHex(sha256(hexToBytes(rawDataHex)));
}

/** The `T…` address of a 32-byte private key; throws when the key is not a valid secp256k1 scalar. */
export function tronAddressOfPrivateKey(privateKey: Uint8Array): string {
  return formatTronAddress(secp256k1.getPublicKey(privateKey, false));
}

/** Signs a transaction id (64 hex) with a 32-byte private key: 130 hex characters, r ‖ s ‖ v. Low-s, RFC 6979 nonces. */
export function signTronTxId(txId: string, privateKey: Uint8Array): string {
  const signature = secp256k1.sign(hexToBytes(txId), privateKey, { lowS: true });
  return signature.toCompactHex() + (27 + signature.recovery).toString(16).padStart(2, "0");
}

/** The `T…` address whose key made `signature` over `txId`; null when the signature is malformed. */
export function recoverTronSigner(txId: string, signature: string): string | null {
  if (!/^[0-9a-fA-F]{130}$/.test(signature)) return null;
  const v = Number.parseInt(signature.slice(128), 16);
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return null;
  try {
    const point = secp256k1.Signature.fromCompact(signature.slice(0, 128)).addRecoveryBit(recovery).recoverPublicKey(hexToBytes(txId));
    return formatTronAddress(point.toRawBytes(false));
  } catch {
    return null;
  }
}
