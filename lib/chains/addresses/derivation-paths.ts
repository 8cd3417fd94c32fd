import { findNetwork, type NetworkFamily, type NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";

/** Families whose deposit keys are secp256k1 BIP-32 keys, derivable from an account xpub. */
export const XPUB_FAMILIES: ReadonlySet<NetworkFamily> = new Set<NetworkFamily>(["utxo", "evm", "tron"]);

/** Families whose deposit keys are ed25519 SLIP-10 keys: hardened-only, so they need the seed. */
export const ED25519_FAMILIES: ReadonlySet<NetworkFamily> = new Set<NetworkFamily>(["solana", "ton"]);

/** Largest child index that is not hardened (BIP-32). */
export const MAX_CHILD_INDEX = 0x7fffffff;

/**
 * Coin types of the account-based secp256k1 families (networks.md §1). Every EVM network uses 60 so that
 * one key has the same address on all of them, as wallets do.
 */
const ACCOUNT_COIN_TYPES: Partial<Record<NetworkFamily, number>> = { evm: 60, tron: 195 };

/**
 * The key tree a network's deposit addresses are derived from: every EVM network shares one
 * (coin type 60, the same address on all of them), every other network has its own. Address
 * indexes are counted per key tree, so no address is ever handed out on two networks.
 */
export function getKeyTree(network: NetworkId): string {
  return getFamilyOrThrow(network) === "evm" ? "evm" : network;
}

export function getFamilyOrThrow(network: NetworkId): NetworkFamily {
  const found = findNetwork(network);
  if (!found) throw new Error(`Unknown network: ${network}`);
  return found.family;
}

/** Throws unless `index` is a whole number that fits a BIP-32 / SLIP-10 child index. */
export function assertChildIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_CHILD_INDEX) {
    throw new RangeError(`Address index must be an integer from 0 to ${MAX_CHILD_INDEX}, got ${index}`);
  }
}

/**
 * BIP-32 path of the account whose xpub the web process holds, e.g. `m/84'/0'/0'` for bitcoin.
 * Deposit address `i` lives at `<account>/0/i`.
 */
export function getAccountPath(network: NetworkId, chain: AddressChain = "main"): string {
  const family = getFamilyOrThrow(network);
  if (family === "utxo") {
    const params = getUtxoParams(network, chain);
    return `m/${params.purpose}'/${params.coinType}'/0'`;
  }
  const coinType = ACCOUNT_COIN_TYPES[family];
  if (coinType === undefined) throw new Error(`${network} keys are ed25519 and have no account xpub`);
  return `m/44'/${coinType}'/0'`;
}

/** Full path of deposit address `index` below an account path: external chain 0, then the index. */
export function getDepositPath(network: NetworkId, index: number, chain: AddressChain = "main"): string {
  assertChildIndex(index);
  return `${getAccountPath(network, chain)}/0/${index}`;
}

/**
 * SLIP-10 path of ed25519 deposit address `index`. The index sits in the account level because SLIP-10
 * ed25519 has no public derivation: Solana `m/44'/501'/i'/0'` (the "solana" wallet layout at i = 0),
 * TON `m/44'/607'/i'` (Trust Wallet Core's layout at i = 0).
 */
export function getEd25519DepositPath(network: NetworkId, index: number): string {
  assertChildIndex(index);
  const family = getFamilyOrThrow(network);
  if (family === "solana") return `m/44'/501'/${index}'/0'`;
  if (family === "ton") return `m/44'/607'/${index}'`;
  throw new Error(`${network} keys are not ed25519`);
}

/** Version bytes of an extended key: what `xpub…`/`tpub…`/`dgub…` decode to. */
export interface ExtendedKeyVersions {
  readonly wif: number;
  readonly bip32: { readonly public: number; readonly private: number };
}

const BITCOIN_MAINNET_VERSIONS: ExtendedKeyVersions = { wif: 0x80, bip32: { public: 0x0488b21e, private: 0x0488ade4 } };

/**
 * Extended-key versions of a network's account keys: the UTXO network's own (networks.md §2), and the
 * plain `xpub` for EVM and Tron, which define none.
 */
export function getExtendedKeyVersions(network: NetworkId, chain: AddressChain = "main"): ExtendedKeyVersions {
  const family = getFamilyOrThrow(network);
  if (family === "utxo") return getUtxoParams(network, chain).bitcoinjs;
  if (XPUB_FAMILIES.has(family)) return BITCOIN_MAINNET_VERSIONS;
  throw new Error(`${network} keys are ed25519 and have no extended public key`);
}
