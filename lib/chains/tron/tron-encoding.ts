import { encodeBase58Check } from "@/lib/chains/addresses/base58check";
import { decodeTronAddress } from "@/lib/chains/addresses/tron-address";

/**
 * Byte and address conversions of the TRON HTTP API. Nodes answer with `visible: false` by
 * default: addresses are 21-byte hex (`41…`), byte fields lower- or upper-case hex.
 */

const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;

export function isHex(text: string): boolean {
  return HEX_PATTERN.test(text);
}

export function hexToBytes(text: string): Uint8Array {
  if (!isHex(text)) throw new Error("not an even-length hex string");
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function bytesToHex(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += byte.toString(16).padStart(2, "0");
  return text;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The 21-byte address (0x41 ‖ account hash) of a base58 `T…` address, as lower-case hex; null when malformed. */
export function tronAddressToHex(address: string): string | null {
  const accountHash = decodeTronAddress(address);
  return accountHash ? `41${bytesToHex(accountHash)}` : null;
}

/** The base58 `T…` form of a 21-byte hex address (`41…`); null for anything else. */
export function tronHexToAddress(hex: string): string | null {
  if (!/^41[0-9a-fA-F]{40}$/.test(hex)) return null;
  return encodeBase58Check(hexToBytes(hex));
}

// ---- TRC-20 `transfer(address,uint256)` calls ----

/** First four bytes of keccak-256("transfer(address,uint256)"). */
export const TRC20_TRANSFER_SELECTOR = "a9059cbb";
export const TRC20_TRANSFER_SIGNATURE = "transfer(address,uint256)";

const WORD_HEX_LENGTH = 64;
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * ABI-encoded arguments of `transfer(to, amount)`, without the selector: the address word holds
 * the 20-byte account hash (TRON's ABI drops the 0x41 prefix), then the amount as uint256.
 */
export function encodeTrc20TransferArguments(toAddress: string, amount: bigint): string {
  const toHex = tronAddressToHex(toAddress);
  if (!toHex) throw new Error(`${toAddress} is not a Tron address`);
  if (amount < 0n || amount > MAX_UINT256) throw new Error("amount does not fit uint256");
  return toHex.slice(2).padStart(WORD_HEX_LENGTH, "0") + amount.toString(16).padStart(WORD_HEX_LENGTH, "0");
}

export const TRC20_BALANCE_OF_SIGNATURE = "balanceOf(address)";

/** ABI-encoded argument of `balanceOf(owner)`, without the selector: the owner's 20-byte account hash in one word. */
export function encodeTrc20BalanceOfArgument(owner: string): string {
  const ownerHex = tronAddressToHex(owner);
  if (!ownerHex) throw new Error(`${owner} is not a Tron address`);
  return ownerHex.slice(2).padStart(WORD_HEX_LENGTH, "0");
}

/**
 * Decodes the call data of `transfer(address,uint256)`; null for any other call. The recipient is
 * the low 20 bytes of the first word, which is what the token contract uses: many wallets write
 * `…0041<hash>` there, and USDT (Solidity 0.4) masks the upper bytes away. Trailing bytes are
 * ignored, as the contract ignores them.
 */
export function decodeTrc20TransferCall(data: string): { toAddress: string; amount: bigint } | null {
  const text = data.toLowerCase();
  if (!text.startsWith(TRC20_TRANSFER_SELECTOR) || !isHex(text)) return null;
  const body = text.slice(TRC20_TRANSFER_SELECTOR.length);
  if (body.length < 2 * WORD_HEX_LENGTH) return null;
  const toAddress = tronHexToAddress(`41${body.slice(WORD_HEX_LENGTH - 40, WORD_HEX_LENGTH)}`);
  if (!toAddress) return null;
  return { toAddress, amount: BigInt(`0x${body.slice(WORD_HEX_LENGTH, 2 * WORD_HEX_LENGTH)}`) };
}
