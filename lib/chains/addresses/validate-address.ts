import { address as bitcoinAddress } from "bitcoinjs-lib";
import bs58 from "bs58";
import { listNetworks, type NetworkId } from "@/lib/catalogue";
import { ADDRESS_CHAINS, type AddressChain } from "@/lib/chains/addresses/address-chain";
import { decodeBase58Check } from "@/lib/chains/addresses/base58check";
import { getFamilyOrThrow } from "@/lib/chains/addresses/derivation-paths";
import { normalizeEvmAddress } from "@/lib/chains/addresses/evm-address";
import { formatTonAddress, parseTonAddress } from "@/lib/chains/addresses/ton-address";
import { decodeTronAddress } from "@/lib/chains/addresses/tron-address";
import { getUtxoParams, type UtxoParams } from "@/lib/chains/addresses/utxo-params";

/** Why an address was refused. */
export type AddressRejection =
  /** Not a well-formed address of any supported network (bad characters, length or checksum). */
  | "malformed"
  /** A well-formed address, but of another network or chain (a bitcoin address given for litecoin). */
  | "wrong_network";

export type AddressValidation =
  | { readonly ok: true; readonly normalized: string }
  | { readonly ok: false; readonly reason: AddressRejection };

export interface ValidateAddressOptions {
  /** Which chain's encodings to accept. Defaults to "main". */
  readonly chain?: AddressChain;
}

/** Segwit programs we can pay: v0 P2WPKH (20 bytes) and P2WSH (32 bytes), v1 taproot (32 bytes). */
function isSupportedWitnessProgram(version: number, program: Uint8Array): boolean {
  if (version === 0) return program.length === 20 || program.length === 32;
  // Later witness versions are valid bech32m but have no spending rules yet: money sent there is
  // anyone-can-spend, so they are refused rather than accepted.
  return version === 1 && program.length === 32;
}

function normalizeUtxoAddress(params: UtxoParams, text: string): string | null {
  const lower = text.toLowerCase();
  if (params.bech32Prefix && lower.startsWith(`${params.bech32Prefix}1`)) {
    try {
      // Checks the bech32 / bech32m checksum for the witness version and rejects mixed case.
      const decoded = bitcoinAddress.fromBech32(text);
      if (decoded.prefix !== params.bech32Prefix) return null;
      return isSupportedWitnessProgram(decoded.version, decoded.data) ? lower : null;
    } catch {
      return null;
    }
  }
  const payload = decodeBase58Check(text);
  if (!payload || payload.length !== 21) return null;
  const version = payload[0];
  if (params.pubKeyHashVersions.includes(version) || params.scriptHashVersions.includes(version)) return text;
  return null;
}

function normalizeSolanaAddress(text: string): string | null {
  if (text.length < 32 || text.length > 44) return null;
  try {
    return bs58.decode(text).length === 32 ? text : null;
  } catch {
    return null;
  }
}

/**
 * TON addresses normalise to the base64url user-friendly form with the flags they came with; a raw
 * address becomes bounceable, as TON libraries print it. Testnet-only addresses are refused on main.
 */
function normalizeTonAddress(text: string, chain: AddressChain): string | null {
  const parsed = parseTonAddress(text);
  if (!parsed) return null;
  if (parsed.isTestOnly && chain === "main") return null;
  const isRaw = text.includes(":");
  return formatTonAddress({ ...parsed, isTestOnly: isRaw ? chain === "test" : parsed.isTestOnly });
}

/** The normalised address when it is valid for this network and chain exactly; null otherwise. */
function normalizeForNetwork(network: NetworkId, chain: AddressChain, text: string): string | null {
  switch (getFamilyOrThrow(network)) {
    case "utxo":
      return normalizeUtxoAddress(getUtxoParams(network, chain), text);
    case "evm":
      return normalizeEvmAddress(text);
    case "tron":
      return decodeTronAddress(text) ? text : null;
    case "solana":
      return normalizeSolanaAddress(text);
    case "ton":
      return normalizeTonAddress(text, chain);
  }
}

/**
 * Checks a payout or refund address for a network. A well-formed address of another network or chain
 * is `wrong_network`, so the caller can say "this is a bitcoin address" instead of "invalid".
 * Surrounding whitespace is not trimmed here: the caller decides what user input may contain.
 */
export function validateAddress(network: NetworkId, address: string, options: ValidateAddressOptions = {}): AddressValidation {
  const chain = options.chain ?? "main";
  const normalized = normalizeForNetwork(network, chain, address);
  if (normalized !== null) return { ok: true, normalized };

  for (const other of listNetworks()) {
    for (const otherChain of ADDRESS_CHAINS) {
      if (other.id === network && otherChain === chain) continue;
      if (normalizeForNetwork(other.id, otherChain, address) !== null) return { ok: false, reason: "wrong_network" };
    }
  }
  return { ok: false, reason: "malformed" };
}
