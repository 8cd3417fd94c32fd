import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { isNetworkId, type NetworkId } from "@/lib/catalogue";
import { log } from "@/lib/log";
import { ADDRESS_CHAINS, type AddressChain } from "./addresses";
import { getKeyTree } from "./addresses/derivation-paths";
import type { ReadyAddress } from "./address-reserve";
import { deriveAddressesWithQrCodesAt, reserveAddressIndexes } from "./allocate-address";
import { loadKeyMaterial, type KeyMaterial } from "./key-material";

/** How many ready addresses each pool in use is filled to at first, and at least. */
export const ADDRESS_POOL_TARGET = 200;
/** A pool is refilled once it holds fewer than half its target: a refill is one counter move and a few inserts. */
export const ADDRESS_POOL_LOW_WATER = ADDRESS_POOL_TARGET / 2;
/** The most a pool is filled to, however fast invoices take addresses (each row holds a QR code of a few kB). */
export const ADDRESS_POOL_MAX_TARGET = 5_000;
/** Addresses derived between two yields to the event loop, so a fill in the web process does not stall requests. */
const DERIVE_SLICE = 20;
/** Rows per insert of a fill. */
const INSERT_CHUNK = 500;

/** What a filler remembers of a pool between two runs. */
export interface PoolSizing {
  target: number;
  /** The pool's size when this filler last left it. */
  level: number;
}

/**
 * The size a pool is filled to, from what it lost since the last run: three runs' worth, so a
 * fill at half of it still lasts past the next run. A pool found empty lost an unknown amount
 * more (invoices derived inline), so its target at least doubles. Between ADDRESS_POOL_TARGET
 * and ADDRESS_POOL_MAX_TARGET, and halved at most per run when demand falls.
 */
export function nextPoolTarget(previous: PoolSizing | undefined, pooled: number): number {
  if (!previous) return ADDRESS_POOL_TARGET;
  const lost = Math.max(0, previous.level - pooled);
  const wanted = pooled === 0 ? Math.max(2 * previous.target, 3 * lost) : Math.max(3 * lost, Math.ceil(previous.target / 2));
  return Math.min(ADDRESS_POOL_MAX_TARGET, Math.max(ADDRESS_POOL_TARGET, wanted));
}

/** Per pool (`network|chain`), what this process's filler last saw: each filler sizes by its own runs. */
const sizings = new Map<string, PoolSizing>();

export interface AddressPoolFill {
  network: string;
  chain: string;
  added: number;
}

/**
 * Tops up the address pool of every (network, chain) that took an address in the last hour and
 * holds fewer than half its target (nextPoolTarget: ADDRESS_POOL_TARGET, more under demand). Networks nobody asked for get none, so a sandbox with
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
  const lowPools = [];
  for (const pool of pools) {
    if (!isKnownPool(pool.network, pool.chain) || (options.onlyNetworks && !options.onlyNetworks.includes(pool.network))) continue;
    const key = `${pool.network}|${pool.chain}`;
    const pooled = Number(pool.pooled);
    const target = nextPoolTarget(sizings.get(key), pooled);
    sizings.set(key, { target, level: pooled });
    if (pooled < target / 2) lowPools.push({ ...pool, key, pooled, target });
  }
  if (lowPools.length === 0) return [];
  const keys = await loadKeyMaterial(deps.db, deps.secretBox);
  const fills: AddressPoolFill[] = [];
  for (const pool of lowPools) {
    try {
      const added = await topUpAddressPool(deps.db, keys, pool.network as NetworkId, pool.chain as AddressChain, pool.target - pool.pooled);
      sizings.set(pool.key, { target: pool.target, level: pool.pooled + added.length });
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
  const entries: ReadyAddress[] = [];
  for (let start = 0; start < indexes.length; start += DERIVE_SLICE) {
    entries.push(...(await deriveAddressesWithQrCodesAt(keys, network, chain, indexes.slice(start, start + DERIVE_SLICE))));
    await yieldToEventLoop();
  }
  for (let start = 0; start < entries.length; start += INSERT_CHUNK) {
    const chunk = entries.slice(start, start + INSERT_CHUNK);
    await db.$executeRaw`
      INSERT INTO deposit_address_pool (key_tree, address_index, chain, network, address, qr_code)
      SELECT ${keyTree}, entry.address_index, ${chain}, ${network}, entry.address, entry.qr_code
      FROM unnest(${chunk.map((entry) => entry.index)}::int[], ${chunk.map((entry) => entry.address)}::text[], ${chunk.map((entry) => entry.qrCode)}::text[])
        AS entry(address_index, address, qr_code)`;
  }
  return indexes;
}

/** A demand row of a network the catalogue still has, on a chain this code knows. */
function isKnownPool(network: string, chain: string): boolean {
  return isNetworkId(network) && (ADDRESS_CHAINS as readonly string[]).includes(chain);
}
