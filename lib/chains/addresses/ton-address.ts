import { bytesToHex, hexToBytes } from "@noble/hashes/utils";
import { computeCellHash, pushBytes, pushUint, toCellRef, type TonCell, type TonCellRef } from "@/lib/chains/addresses/ton-cell";

/** A TON account address with the flags of its user-friendly form. */
export interface TonAddress {
  /** 0 for the basechain, -1 for the masterchain. */
  readonly workchain: number;
  /** 32-byte account id: the representation hash of the contract's initial state. */
  readonly hash: Uint8Array;
  /** Whether a message to it should bounce when the account is not initialised. */
  readonly isBounceable: boolean;
  /** Whether the address is flagged testnet-only (the 0x80 flag bit). */
  readonly isTestOnly: boolean;
}

/**
 * Wallet v4R2 code cell, as hash and depth. Both were computed from the published v4R2 code BOC
 * (`te6ccgECFAEAAtQAART/APSk…`, 20 cells) with `computeCellHash`; the hash is the well-known v4R2 code hash.
 */
const WALLET_V4R2_CODE: TonCellRef = {
  hash: hexToBytes("feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0"),
  depth: 7,
};

/** Default wallet id of v4 wallets: 698983191 + workchain. */
const WALLET_V4_SUBWALLET_ID = 698983191n;

const FLAG_BOUNCEABLE = 0x11;
const FLAG_NON_BOUNCEABLE = 0x51;
const FLAG_TEST_ONLY = 0x80;
const USER_FRIENDLY_LENGTH = 48;
const RAW_ADDRESS = /^(0|-1):([0-9a-fA-F]{64})$/;
const BASE64_STANDARD = /^[A-Za-z0-9+/]{48}$/;
const BASE64_URL = /^[A-Za-z0-9_-]{48}$/;
const BASE64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Plain base64 helpers instead of Buffer, so address checks also run in the browser. A user-friendly
// address is 36 bytes = 48 characters exactly, so there is never padding.
function encodeBase64Url(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    for (let shift = 18; shift >= 0; shift -= 6) text += BASE64URL_ALPHABET[(chunk >> shift) & 63];
  }
  return text;
}

/** Decodes 48 characters of base64 or base64url (already checked against the regexes) into 36 bytes. */
function decodeBase64(text: string): Uint8Array {
  const urlSafe = text.replaceAll("+", "-").replaceAll("/", "_");
  const bytes = new Uint8Array((urlSafe.length / 4) * 3);
  for (let i = 0, out = 0; i < urlSafe.length; i += 4, out += 3) {
    let chunk = 0;
    for (let j = 0; j < 4; j++) chunk = (chunk << 6) | BASE64URL_ALPHABET.indexOf(urlSafe[i + j]);
    bytes[out] = chunk >> 16;
    bytes[out + 1] = (chunk >> 8) & 0xff;
    bytes[out + 2] = chunk & 0xff;
  }
  return bytes;
}

/** Account id of a wallet v4R2 on workchain 0 for an ed25519 public key: the hash of its state init. */
export function computeWalletV4R2AccountId(publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== 32) throw new Error("An ed25519 public key has 32 bytes");
  // Data: seqno = 0 (32 bits), subwallet id (32 bits), public key (256 bits), empty plugins dict (1 bit).
  const dataBits: boolean[] = [];
  pushUint(dataBits, 0n, 32);
  pushUint(dataBits, WALLET_V4_SUBWALLET_ID, 32);
  pushBytes(dataBits, publicKey);
  dataBits.push(false);
  const data: TonCell = { bits: dataBits, refs: [] };

  // StateInit: split_depth absent, special absent, code present, data present, library absent.
  const stateInit: TonCell = {
    bits: [false, false, true, true, false],
    refs: [WALLET_V4R2_CODE, toCellRef(data)],
  };
  return computeCellHash(stateInit);
}

/** CRC16-XMODEM (polynomial 0x1021, initial value 0) used by user-friendly TON addresses. */
export function computeCrc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** Writes the 48-character base64url user-friendly form: flag, workchain, hash, CRC16. */
export function formatTonAddress(address: TonAddress): string {
  const bytes = new Uint8Array(36);
  bytes[0] = (address.isBounceable ? FLAG_BOUNCEABLE : FLAG_NON_BOUNCEABLE) | (address.isTestOnly ? FLAG_TEST_ONLY : 0);
  bytes[1] = address.workchain & 0xff;
  bytes.set(address.hash, 2);
  const crc = computeCrc16Xmodem(bytes.subarray(0, 34));
  bytes[34] = crc >> 8;
  bytes[35] = crc & 0xff;
  return encodeBase64Url(bytes);
}

/** Writes the raw form `workchain:hex64`. */
export function formatRawTonAddress(address: Pick<TonAddress, "workchain" | "hash">): string {
  return `${address.workchain}:${bytesToHex(address.hash)}`;
}

/**
 * Parses the raw form (`0:…`, `-1:…`) or the user-friendly form in base64 or base64url; null when malformed.
 * A raw address carries no flags: it is reported bounceable and not test-only, as TON libraries do.
 */
export function parseTonAddress(text: string): TonAddress | null {
  const raw = RAW_ADDRESS.exec(text);
  if (raw) {
    return { workchain: Number(raw[1]), hash: hexToBytes(raw[2].toLowerCase()), isBounceable: true, isTestOnly: false };
  }
  if (text.length !== USER_FRIENDLY_LENGTH || !(BASE64_STANDARD.test(text) || BASE64_URL.test(text))) return null;
  const bytes = decodeBase64(text);
  const crc = computeCrc16Xmodem(bytes.subarray(0, 34));
  if (bytes[34] !== crc >> 8 || bytes[35] !== (crc & 0xff)) return null;

  const tag = bytes[0] & ~FLAG_TEST_ONLY;
  if (tag !== FLAG_BOUNCEABLE && tag !== FLAG_NON_BOUNCEABLE) return null;
  const workchain = bytes[1] === 0xff ? -1 : bytes[1];
  // Only the basechain and the masterchain exist.
  if (workchain !== 0 && workchain !== -1) return null;
  return {
    workchain,
    hash: bytes.slice(2, 34),
    isBounceable: tag === FLAG_BOUNCEABLE,
    isTestOnly: (bytes[0] & FLAG_TEST_ONLY) !== 0,
  };
}

/**
 * Every written form of the account behind an address: itself and, for a TON address (friendly
 * or raw), its four flag variants (bounceable or not, test-only or not) — all one account.
 */
export function accountForms(address: string): string[] {
  const ton = parseTonAddress(address);
  if (!ton) return [address];
  const variants = [false, true].flatMap((isBounceable) => [false, true].map((isTestOnly) => formatTonAddress({ ...ton, isBounceable, isTestOnly })));
  return [...new Set([address, ...variants])];
}
