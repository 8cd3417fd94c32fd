import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { isNetworkId, type NetworkId } from "@/lib/catalogue";
import { log } from "@/lib/log";
import { ADDRESS_CHAINS, type AddressChain } from "./addresses";
import { getKeyTree } from "./addresses/derivation-paths";
import { renderQrCode } from "./addresses/qr-code";
import { deriveAddressesAt, reserveAddressIndexes } from "./allocate-address";
import { loadKeyMaterial, type KeyMaterial } from "./key-material";

/** How many ready addresses each pool in use is filled to. */
export const ADDRESS_POOL_TARGET = 200;
/** A pool is refilled once it holds fewer than this: a refill is one counter move and one insert. */
export const ADDRESS_POOL_LOW_WATER = ADDRESS_POOL_TARGET / 2;
/** Addresses derived between two yields to the event loop, so a fill in the web process does not stall requests. */
const DERIVE_SLICE = 20;

export interface AddressPoolFill {
  network: string;
  chain: string;
  added: number;
}

/**
 * Tops up the address pool of every (network, chain) that took an address in the last hour and
 * holds fewer than ADDRESS_POOL_LOW_WATER. Networks nobody asked for get none, so a sandbox with
 * every network enabled derives nothing at start. Two fillers running at once may both top up a
 * pool: it then holds up to twice the target, which costs derivations and nothing else.
 * `onlyNetworks` limits a run to some networks (tests share one database).
 */
export async function fillAddressPools(deps: { db: Db; secretBox: SecretBox }, options: { onlyNetworks?: readonly string[] } = {}): Promise<AddressPoolFill[]> {
  const pools = await deps.db.$queryRaw<{ network: string; chain: string; pooled: number }[]>`
    SELECT demand.network, demand.chain,
      (SELECT count(*)::int FROM deposit_address_pool AS pool WHERE pool.network = demand.network AND pool.chain = demand.chain) AS pooled
    FROM deposit_address_pool_demand AS demand
    WHERE demand.last_taken_at > now() - interval '1 hour'`;
  const lowPools = pools.filter(
    (pool) => Number(pool.pooled) < ADDRESS_POOL_LOW_WATER && isKnownPool(pool.network, pool.chain) && (!options.onlyNetworks || options.onlyNetworks.includes(pool.network)),
  );
  if (lowPools.length === 0) return [];
  const keys = await loadKeyMaterial(deps.db, deps.secretBox);
  const fills: AddressPoolFill[] = [];
  for (const pool of lowPools) {
    try {
      const added = await topUpAddressPool(deps.db, keys, pool.network as NetworkId, pool.chain as AddressChain, ADDRESS_POOL_TARGET - Number(pool.pooled));
      fills.push({ network: pool.network, chain: pool.chain, added: added.length });
    } catch (error) {
      log.warn("address pool fill failed; the next run tries again", { network: pool.network, chain: pool.chain, error });
    }
  }
  return fills;
}

/**
 * Adds `count` addresses to a pool and returns their indexes: the indexes are taken from the key tree's counter in one
 * statement, the addresses and QR codes made outside any transaction, then inserted in one
 * statement. A crash in between skips those indexes, as an invoice that was not created does.
 */
export async function topUpAddressPool(db: Db, keys: KeyMaterial, network: NetworkId, chain: AddressChain, count: number): Promise<number[]> {
  if (count <= 0) return [];
  const indexes = await reserveAddressIndexes(db, network, count);
  const keyTree = getKeyTree(network);
  const entries = [];
  for (let start = 0; start < indexes.length; start += DERIVE_SLICE) {
    for (const { address, index } of deriveAddressesAt(keys, network, chain, indexes.slice(start, start + DERIVE_SLICE))) {
      entries.push({ keyTree, addressIndex: index, chain, network, address, qrCode: await renderQrCode(address) });
    }
    await yieldToEventLoop();
  }
  await db.depositAddressPoolEntry.createMany({ data: entries });
  return indexes;
}

/** A demand row of a network the catalogue still has, on a chain this code knows. */
function isKnownPool(network: string, chain: string): boolean {
  return isNetworkId(network) && (ADDRESS_CHAINS as readonly string[]).includes(chain);
}
