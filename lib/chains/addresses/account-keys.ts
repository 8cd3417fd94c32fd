import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from "bip39";
import { listNetworks, type NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import { XPUB_FAMILIES, getAccountPath, getExtendedKeyVersions } from "@/lib/chains/addresses/derivation-paths";

const bip32 = BIP32Factory(ecc);

/** 256 bits of entropy: a 24-word mnemonic. */
const MNEMONIC_STRENGTH_BITS = 256;

/** Account xpub per network; Solana and TON are absent because ed25519 keys have no xpub. */
export type AccountXpubs = Partial<Record<NetworkId, string>>;

/** A freshly generated master secret: the words to back up and the seed they stand for. */
export interface MasterSeed {
  readonly mnemonic: string;
  readonly seed: Uint8Array;
}

/** BIP-39 seed (64 bytes) of a mnemonic; throws when the words or their checksum are invalid. */
export function deriveMasterSeed(mnemonic: string, passphrase = ""): Uint8Array {
  const words = mnemonic.trim().split(/\s+/).join(" ");
  if (!validateMnemonic(words)) throw new Error("Not a valid BIP-39 mnemonic");
  return new Uint8Array(mnemonicToSeedSync(words, passphrase));
}

/**
 * A new random 24-word mnemonic and its seed, for sandbox runs and first-time set-up. Nothing is
 * stored: the caller decides where the secret lives.
 */
export function createRandomMasterSeed(): MasterSeed {
  const mnemonic = generateMnemonic(MNEMONIC_STRENGTH_BITS);
  return { mnemonic, seed: new Uint8Array(mnemonicToSeedSync(mnemonic)) };
}

/** The account-level xpub of one network (`getAccountPath`), encoded with that network's versions. */
export function deriveAccountXpub(seed: Uint8Array, network: NetworkId, chain: AddressChain = "main"): string {
  const root = bip32.fromSeed(seed, getExtendedKeyVersions(network, chain));
  return root.derivePath(getAccountPath(network, chain)).neutered().toBase58();
}

/**
 * Account xpubs of every UTXO, EVM and Tron network in the catalogue, run once by the operator at
 * set-up. The web process keeps only these and derives deposit addresses with `deriveDepositAddress`.
 */
export function deriveAccountXpubs(seed: Uint8Array, options: { chain?: AddressChain } = {}): AccountXpubs {
  const chain = options.chain ?? "main";
  const xpubs: AccountXpubs = {};
  for (const network of listNetworks()) {
    if (XPUB_FAMILIES.has(network.family)) xpubs[network.id] = deriveAccountXpub(seed, network.id, chain);
  }
  return xpubs;
}
