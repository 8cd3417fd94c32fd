import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { ed25519 } from "@noble/curves/ed25519";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { deriveAccountXpub, deriveDepositAddress, deriveEd25519DepositAddress, type AddressChain } from "./addresses";
import { ED25519_FAMILIES, getDepositPath, getEd25519DepositPath, getExtendedKeyVersions } from "./addresses/derivation-paths";
import { deriveSlip10Ed25519 } from "./addresses/slip10";
import type { SigningKey } from "./types";

const bip32 = BIP32Factory(ecc);

/**
 * The hot wallet of every network is one reserved index of the deposit tree: the address
 * counter never comes near it, so no invoice can ever get the hot wallet's address.
 */
export const HOT_WALLET_INDEX = 2_000_000_000;

/**
 * The private key of deposit address `index` (or of the hot wallet), for the component that
 * sends from it (the sweeper). It needs the seed: this is the only place private keys are made.
 */
export function deriveSigningKey(seed: Uint8Array, network: NetworkId, index: number, chain: AddressChain = "main"): SigningKey {
  const family = findNetwork(network)?.family;
  if (!family) throw new Error(`unknown network ${network}`);
  if (ED25519_FAMILIES.has(family)) {
    const privateKey = deriveSlip10Ed25519(seed, getEd25519DepositPath(network, index)).privateKey;
    return { privateKey, publicKey: ed25519.getPublicKey(privateKey), address: deriveEd25519DepositAddress({ network, seed, index, chain }).address };
  }
  const node = bip32.fromSeed(seed, getExtendedKeyVersions(network, chain)).derivePath(getDepositPath(network, index, chain));
  if (!node.privateKey) throw new Error("derived a key without its private half");
  const address = deriveDepositAddress({ network, accountXpub: deriveAccountXpub(seed, network, chain), index, chain }).address;
  return { privateKey: Uint8Array.from(node.privateKey), publicKey: Uint8Array.from(node.publicKey), address };
}
