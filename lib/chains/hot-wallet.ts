import type { NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "./addresses";
import type { KeyMaterial } from "./key-material";
import { deriveSigningKey, HOT_WALLET_INDEX } from "./signing-keys";

const addressesOf = new WeakMap<KeyMaterial, Map<string, string>>();

/** The hot wallet's address on a network (public; remembered per key material, as it never changes). */
export function hotWalletAddress(keys: KeyMaterial, network: NetworkId, chain: AddressChain): string {
  let known = addressesOf.get(keys);
  if (!known) addressesOf.set(keys, (known = new Map()));
  const cacheKey = `${network}:${chain}`;
  let address = known.get(cacheKey);
  if (address === undefined) {
    address = deriveSigningKey(keys.openSeed(), network, HOT_WALLET_INDEX, chain).address;
    known.set(cacheKey, address);
  }
  return address;
}
