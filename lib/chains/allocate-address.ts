import type { Tx } from "@/lib/db/client";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { deriveDepositAddress, deriveEd25519DepositAddress } from "./addresses";
import { ED25519_FAMILIES } from "./addresses/derivation-paths";
import type { KeyMaterial } from "./key-material";

export interface AllocatedAddress {
  address: string;
  index: number;
}

/**
 * The next unused deposit address of a network, inside the invoice's transaction: the counter
 * row is locked by its update, so concurrent invoices get distinct indexes, and an index is
 * never handed out twice (a rolled-back invoice rolls its index back with it, unused).
 */
export async function allocateDepositAddress(tx: Tx, keys: KeyMaterial, network: NetworkId): Promise<AllocatedAddress> {
  const [row] = await tx.$queryRaw<{ index: number }[]>`
    INSERT INTO address_counters (network, next_index) VALUES (${network}, 1)
    ON CONFLICT (network) DO UPDATE SET next_index = address_counters.next_index + 1
    RETURNING next_index - 1 AS index`;
  const index = Number(row.index);
  const family = findNetwork(network)?.family;
  if (!family) throw new Error(`unknown network ${network}`);
  if (ED25519_FAMILIES.has(family)) {
    return { address: deriveEd25519DepositAddress({ network, seed: keys.openSeed(), index }).address, index };
  }
  const accountXpub = keys.xpubs[network];
  if (!accountXpub) throw new Error(`no account key for ${network}`);
  return { address: deriveDepositAddress({ network, accountXpub, index }).address, index };
}
