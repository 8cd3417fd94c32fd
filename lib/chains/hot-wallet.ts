import type { NetworkId } from "@/lib/catalogue";
import { deriveDepositAddress, type AddressChain } from "./addresses";
import { ED25519_FAMILIES, getFamilyOrThrow } from "./addresses/derivation-paths";
import type { KeyMaterial } from "./key-material";
import { deriveSigningKey, HOT_WALLET_INDEX } from "./signing-keys";

const addressesOf = new WeakMap<KeyMaterial, Map<string, string>>();

/**
 * The hot wallet's address on a network (public; remembered per key material, as it never changes).
 * Made without the seed: from the account xpub (the hot wallet index is not hardened), or, for
 * ed25519 networks, as recorded with the keys. Only keys made before that record, loaded where the
 * seed may not be opened, have nothing to answer with.
 */
export function hotWalletAddress(keys: KeyMaterial, network: NetworkId, chain: AddressChain): string {
  let known = addressesOf.get(keys);
  if (!known) addressesOf.set(keys, (known = new Map()));
  const cacheKey = `${network}:${chain}`;
  let address = known.get(cacheKey);
  if (address === undefined) {
    address = findPublicHotWalletAddress(keys, network, chain);
    if (address === undefined) {
      if (!keys.canOpenSeed) throw new Error(`The hot wallet address of ${network} (${chain}) is not recorded yet: a process with the worker records it when it starts`);
      address = deriveSigningKey(keys.openSeed(), network, HOT_WALLET_INDEX, chain).address;
    }
    known.set(cacheKey, address);
  }
  return address;
}

function findPublicHotWalletAddress(keys: KeyMaterial, network: NetworkId, chain: AddressChain): string | undefined {
  if (ED25519_FAMILIES.has(getFamilyOrThrow(network))) return keys.recordedHotWalletAddress(network, chain);
  const accountXpub = keys.xpubsFor(chain)[network];
  return accountXpub === undefined ? undefined : deriveDepositAddress({ network, accountXpub, index: HOT_WALLET_INDEX, chain }).address;
}
