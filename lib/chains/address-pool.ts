import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { GatewayConfig } from "@/lib/config/env";
import { isNetworkId, listNetworks, type NetworkId } from "@/lib/catalogue";
import { log } from "@/lib/log";
import { ADDRESS_CHAINS, type AddressChain } from "./addresses";
import { ED25519_FAMILIES, getKeyTree } from "./addresses/derivation-paths";
import { resolveNetworkStatus } from "./network-sources";
import { addressChainOf } from "./registry";
import type { ReadyAddress } from "./address-reserve";
import { deriveAddressesWithQrCodesAt, reserveAddressIndexes } from "./allocate-address";
import { loadKeyMaterial, type KeyMaterial } from "./key-material";

/** How many ready addresses each pool in use is filled to at first, and at least, unless configured (GATEWAY_ADDRESS_POOL_SIZE). */
export const ADDRESS_POOL_TARGET = 200;
/** A pool is refilled once it holds fewer than half its target: a refill is one counter move and a few inserts. */
export const ADDRESS_POOL_LOW_WATER = ADDRESS_POOL_TARGET / 2;
/** The most a pool is filled to, however fast invoices take addresses (each row holds a QR code of a few kB). */
export const ADDRESS_POOL_MAX_TARGET = 5_000;
/** How long a filler's claim on a pool holds if the filler dies before it lets go (see claimPool). */
const FILL_CLAIM_SECONDS = 300;
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
 * more (invoices derived inline, or refused), so its target at least doubles. Between `floor`
 * (the configured pool size) and ADDRESS_POOL_MAX_TARGET, and halved at most per run when demand falls.
 */
export function nextPoolTarget(previous: PoolSizing | undefined, pooled: number, floor = ADDRESS_POOL_TARGET): number {
  if (!previous) return floor;
  const lost = Math.max(0, previous.level - pooled);
  const wanted = pooled === 0 ? Math.max(2 * previous.target, 3 * lost) : Math.max(3 * lost, Math.ceil(previous.target / 2));
  return Math.min(Math.max(ADDRESS_POOL_MAX_TARGET, floor), Math.max(floor, wanted));
}

/** Per pool (`network|chain`), what this process's filler last saw: each filler sizes by its own runs. */
const sizings = new Map<string, PoolSizing>();

export interface AddressPoolFill {
  network: string;
  chain: string;
  added: number;
}

export interface AddressPoolDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "addressPoolSize">;
}

/**
 * The pools that must hold addresses whether or not anyone took one lately: every Solana and TON
 * network a chain serves here, in the address formats of that chain. A process without the seed
 * (web-only) cannot derive their addresses, so invoice creation there takes them from the pool alone.
 */
export function listRequiredPools(config: AddressPoolDeps["config"]): { network: NetworkId; chain: AddressChain }[] {
  return listNetworks()
    .filter((network) => ED25519_FAMILIES.has(network.family) && resolveNetworkStatus(network, config).source !== "off")
    .map((network) => ({ network: network.id as NetworkId, chain: addressChainOf(config, network.id) }));
}

/**
 * Tops up the address pool of every required pool (listRequiredPools) and of every (network, chain)
 * that took an address in the last hour, once it holds fewer than half its target (nextPoolTarget:
 * the configured size, more under demand). Other networks get none, so a sandbox with every network
 * enabled derives only its Solana and TON pools at start. Fillers that race (two workers) are
 * serialised per pool (fillAddressPool): the pool ends as one filler would leave it.
 * `onlyNetworks` limits a run to some networks (tests share one database).
 */
export async function fillAddressPools(deps: AddressPoolDeps, options: { onlyNetworks?: readonly string[] } = {}): Promise<AddressPoolFill[]> {
  const floor = deps.config.addressPoolSize;
  const required = listRequiredPools(deps.config);
  const pools = await deps.db.$queryRaw<{ network: string; chain: string; pooled: number }[]>`
    SELECT wanted.network, wanted.chain,
      (SELECT count(*)::int FROM deposit_address_pool AS pool WHERE pool.network = wanted.network AND pool.chain = wanted.chain) AS pooled
    FROM (
      SELECT network, chain FROM deposit_address_pool_demand WHERE last_taken_at > now() - interval '1 hour'
      UNION
      SELECT network, chain FROM unnest(${required.map((pool) => pool.network)}::text[], ${required.map((pool) => pool.chain)}::text[]) AS required(network, chain)
    ) AS wanted`;
  const lowPools = [];
  for (const pool of pools) {
    if (!isKnownPool(pool.network, pool.chain) || (options.onlyNetworks && !options.onlyNetworks.includes(pool.network))) continue;
    const key = `${pool.network}|${pool.chain}`;
    const pooled = Number(pool.pooled);
    const target = nextPoolTarget(sizings.get(key), pooled, floor);
    if (pooled < target / 2) lowPools.push({ ...pool, key });
    else sizings.set(key, { target, level: pooled });
  }
  if (lowPools.length === 0) return [];
  const keys = await loadKeyMaterial(deps.db, deps.secretBox);
  const fills: AddressPoolFill[] = [];
  for (const pool of lowPools) {
    try {
      const added = await fillAddressPool(deps.db, keys, pool.network as NetworkId, pool.chain as AddressChain, (pooled) => {
        const target = nextPoolTarget(sizings.get(pool.key), pooled, floor);
        sizings.set(pool.key, { target, level: pooled });
        return target;
      });
      if (added === null || added.length === 0) continue;
      const sizing = sizings.get(pool.key)!;
      sizings.set(pool.key, { target: sizing.target, level: sizing.level + added.length });
      fills.push({ network: pool.network, chain: pool.chain, added: added.length });
    } catch (error) {
      log.warn("address pool fill failed; the next run tries again", { network: pool.network, chain: pool.chain, error });
    }
  }
  return fills;
}

/**
 * Claims the pool, counts it, and tops it up to `targetOf(count)` when it holds fewer than half of
 * that; returns the indexes added, or null when another filler holds the pool. Counting under the
 * claim is what makes racing fillers harmless: the second one counts what the first one added.
 */
export async function fillAddressPool(
  db: Db,
  keys: KeyMaterial,
  network: NetworkId,
  chain: AddressChain,
  targetOf: (pooled: number) => number,
): Promise<number[] | null> {
  const claim = await claimPool(db, network, chain);
  if (!claim) return null;
  try {
    const pooled = await db.depositAddressPoolEntry.count({ where: { network, chain } });
    const target = targetOf(pooled);
    if (pooled >= target / 2) return [];
    return await topUpAddressPool(db, keys, network, chain, target - pooled);
  } finally {
    // Only its own claim: a filler that ran past it must not release the one that took over.
    await db.depositAddressPoolFill.updateMany({ where: { network, chain, claimedUntil: claim }, data: { claimedUntil: new Date(0) } });
  }
}

/**
 * One statement: the pool's claim row, made or taken over when its last claim has run out; the
 * claim's end, which names it, or null. A filler that died holding it delays that pool's next
 * fill by FILL_CLAIM_SECONDS at most.
 */
async function claimPool(db: Db, network: NetworkId, chain: AddressChain): Promise<Date | null> {
  const claimed = await db.$queryRaw<{ claimedUntil: Date }[]>`
    INSERT INTO deposit_address_pool_fills (network, chain, claimed_until)
    VALUES (${network}, ${chain}, now() + ${FILL_CLAIM_SECONDS}::int * interval '1 second')
    ON CONFLICT (network, chain) DO UPDATE SET claimed_until = EXCLUDED.claimed_until
    WHERE deposit_address_pool_fills.claimed_until < now()
    RETURNING claimed_until AS "claimedUntil"`;
  return claimed[0]?.claimedUntil ?? null;
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
