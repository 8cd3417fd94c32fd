import type { Db, Tx } from "@/lib/db/client";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { deriveDepositAddress, deriveEd25519DepositAddress, type AddressChain } from "./addresses";
import { ED25519_FAMILIES, getKeyTree } from "./addresses/derivation-paths";
import type { KeyMaterial } from "./key-material";

export interface AllocatedAddress {
  address: string;
  index: number;
}

/**
 * The next unused deposit address of a network, counted per key tree (see getKeyTree): a payer
 * who sends on the wrong EVM network reaches an address that belongs to no other invoice there.
 * The counter moves in one statement — outside
 * the invoice's transaction when given the client, so invoices of one network do not queue
 * behind each other's transactions — and never goes back: an index whose invoice was not
 * created is skipped, never handed out twice.
 */
export async function allocateDepositAddress(db: Db | Tx, keys: KeyMaterial, network: NetworkId, chain: AddressChain = "main"): Promise<AllocatedAddress> {
  const [allocated] = await allocateDepositAddresses(db, keys, network, 1, chain);
  return allocated;
}

/**
 * `count` consecutive unused deposit addresses of a network, taken with one move of the counter
 * (the same rules as allocateDepositAddress).
 */
export async function allocateDepositAddresses(db: Db | Tx, keys: KeyMaterial, network: NetworkId, count: number, chain: AddressChain = "main"): Promise<AllocatedAddress[]> {
  if (count <= 0) return [];
  const [row] = await db.$queryRaw<{ first: number }[]>`
    INSERT INTO address_counters (key_tree, next_index) VALUES (${getKeyTree(network)}, ${count}::int)
    ON CONFLICT (key_tree) DO UPDATE SET next_index = address_counters.next_index + ${count}::int
    RETURNING next_index - ${count}::int AS first`;
  const first = Number(row.first);
  const family = findNetwork(network)?.family;
  if (!family) throw new Error(`unknown network ${network}`);
  const indexes = Array.from({ length: count }, (_, offset) => first + offset);
  if (ED25519_FAMILIES.has(family)) {
    const seed = keys.openSeed();
    return indexes.map((index) => ({ address: deriveEd25519DepositAddress({ network, seed, index, chain }).address, index }));
  }
  const accountXpub = keys.xpubsFor(chain)[network];
  if (!accountXpub) throw new Error(`no account key for ${network}`);
  return indexes.map((index) => ({ address: deriveDepositAddress({ network, accountXpub, index, chain }).address, index }));
}
