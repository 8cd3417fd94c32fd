import type { Db, Tx } from "@/lib/db/client";
import { createKeyedCoalescer, onePerOwner } from "@/lib/db/coalesce";
import { queryRows } from "@/lib/db/direct-query";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log";
import { deriveDepositAddresses, deriveEd25519DepositAddress, type AddressChain } from "./addresses";
import { ED25519_FAMILIES, getKeyTree } from "./addresses/derivation-paths";
import { deriveWithQrCodes } from "./addresses/derivation-threads";
import { rememberQrCode, renderQrCode } from "./addresses/qr-code";
import { AddressReserve, type AddressReserveOptions, type ReadyAddress } from "./address-reserve";
import type { KeyMaterial } from "./key-material";

export interface AllocatedAddress {
  address: string;
  index: number;
}

/**
 * The next unused deposit address of a network, counted per key tree (see getKeyTree): a payer
 * who sends on the wrong EVM network reaches an address that belongs to no other invoice there.
 * Taken from the address pool when it has one (see address-pool.ts), derived here otherwise —
 * except an ed25519 address (Solana, TON) in a process that may not open the seed (web-only):
 * that comes from the pool alone, and an empty pool answers invoice.address_failed (503).
 * Either way it costs one statement — outside the invoice's transaction when given the client,
 * so invoices of one network do not queue behind each other's transactions — and an index is
 * never handed out twice: one whose invoice was not created is skipped.
 */
export async function allocateDepositAddress(db: Db | Tx, keys: KeyMaterial, network: NetworkId, chain: AddressChain = "main"): Promise<AllocatedAddress> {
  const [allocated] = await allocateDepositAddresses(db, keys, network, 1, chain);
  return allocated;
}

/** Addresses of one coalesced take at most. */
const COALESCED_TAKE_ADDRESSES = 250;

/** Per database client and key material, a coalescer per network and chain. */
const addressTakerOf = onePerOwner((db: Db) =>
  onePerOwner((keys: KeyMaterial) =>
    createKeyedCoalescer(
      (request: { network: NetworkId; chain: AddressChain }) => `${request.network}|${request.chain}`,
      () => ({
        maxBatch: COALESCED_TAKE_ADDRESSES,
        // A pool that runs short answers the first requests; the rest fail alone (see takeDepositAddress).
        runBatch: (requests): Promise<(AllocatedAddress | undefined)[]> =>
          allocateAvailableDepositAddresses(db, keys, requests[0].network, requests.length, requests[0].chain, 1).then((allocated) =>
            requests.map((_, position) => allocated[position]),
          ),
      }),
    ),
  ),
);

/**
 * allocateDepositAddress outside any transaction: one this process holds ahead when invoices of
 * the network come in quick succession (see AddressReserve), otherwise taken with the addresses
 * other requests take at the same moment (see createCoalescer): one statement moves the pool and
 * the counter for all of them, and the addresses the pool lacked are derived together.
 */
export async function takeDepositAddress(db: Db, keys: KeyMaterial, network: NetworkId, chain: AddressChain = "main"): Promise<AllocatedAddress> {
  // Without the seed this process cannot derive ed25519 addresses ahead: the pool is their only source.
  const ready = isPoolOnly(keys, network) ? null : addressReserveOf(db)(keys)(network, chain).take();
  if (!ready) {
    const taken = await addressTakerOf(db)(keys)({ network, chain });
    if (!taken) throw poolEmptyError(network, chain);
    return taken;
  }
  rememberQrCode(ready.address, ready.qrCode);
  return { address: ready.address, index: ready.index };
}

/** Per database client and key material, the addresses held ahead per network and chain (see AddressReserve). */
const addressReserveOf = onePerOwner((db: Db) =>
  onePerOwner((keys: KeyMaterial) => {
    const reserves = new Map<string, AddressReserve>();
    return (network: NetworkId, chain: AddressChain) => {
      const poolKey = `${network}|${chain}`;
      let reserve = reserves.get(poolKey);
      if (!reserve) reserves.set(poolKey, (reserve = createAddressReserve(db, keys, network, chain)));
      return reserve;
    };
  }),
);

/** Addresses of a network held ahead by this process (see AddressReserve): indexes from the key tree's counter, derived off the request thread. */
export function createAddressReserve(db: Db, keys: KeyMaterial, network: NetworkId, chain: AddressChain, options?: AddressReserveOptions): AddressReserve {
  return new AddressReserve(
    {
      reserveIndexes: async (count) => {
        // A network this key material cannot derive fails before the counter moves, not after.
        if (!ED25519_FAMILIES.has(familyOf(network))) accountXpubOf(keys, network, chain);
        return reserveAddressIndexes(db, network, count);
      },
      derive: (indexes) => deriveAddressesWithQrCodesAt(keys, network, chain, indexes),
    },
    options,
  );
}

/**
 * `count` unused deposit addresses of a network (the same rules as allocateDepositAddress): as
 * many as the pool has, the rest derived at indexes from one move of the counter — the take and
 * the move are one statement, so a dry pool costs no extra round trip.
 */
export async function allocateDepositAddresses(db: Db | Tx, keys: KeyMaterial, network: NetworkId, count: number, chain: AddressChain = "main"): Promise<AllocatedAddress[]> {
  const allocated = await allocateAvailableDepositAddresses(db, keys, network, count, chain, count);
  if (allocated.length < count) throw poolEmptyError(network, chain);
  return allocated;
}

/**
 * Whether a network's addresses come from the pool alone here: ed25519 addresses need the seed,
 * which a web-only process does not open.
 */
function isPoolOnly(keys: KeyMaterial, network: NetworkId): boolean {
  return !keys.canOpenSeed && ED25519_FAMILIES.has(familyOf(network));
}

const lastPoolWarningAt = new Map<string, number>();

/** invoice.address_failed for a pool-only network whose pool ran dry, with a warning (at most one per pool per 10 s). */
function poolEmptyError(network: NetworkId, chain: AddressChain): AppError {
  const poolKey = `${network}|${chain}`;
  const now = Date.now();
  if ((lastPoolWarningAt.get(poolKey) ?? 0) < now - 10_000) {
    lastPoolWarningAt.set(poolKey, now);
    log.warn("deposit address pool is empty: invoices of this network are refused until the worker refills it (address-pool.fill)", { network, chain });
  }
  return new AppError("invoice.address_failed", "No deposit address of this network is ready; retry with backoff.");
}

/**
 * allocateDepositAddresses, except that a pool-only network (isPoolOnly) answers what its pool
 * holds: nothing unless it holds at least `minimum`, so an all-or-nothing caller loses no address.
 */
async function allocateAvailableDepositAddresses(
  db: Db | Tx,
  keys: KeyMaterial,
  network: NetworkId,
  count: number,
  chain: AddressChain,
  minimum: number,
): Promise<AllocatedAddress[]> {
  if (count <= 0) return [];
  if (isPoolOnly(keys, network)) return takePooledAddresses(db, network, chain, count, minimum);
  const { pooled, reserved } = await takePooledOrReserve(db, network, chain, count);
  // Here, not on a derivation thread: the requests are waiting, and a hop to a thread (or its start) would add to their wait.
  return [...pooled, ...deriveAddressesAt(keys, network, chain, reserved)];
}

/**
 * The CTEs both takers share: `picked` locks up to $3 pooled rows of network $1 and chain $2
 * (SKIP LOCKED), `taken` deletes them when `takeWhen` holds and returns them, `noticed` and
 * `refreshed` record the demand address-pool.fill reads.
 */
function pooledTakingSteps(takeWhen: string): string {
  return `
  picked AS MATERIALIZED (
    SELECT key_tree, address_index FROM deposit_address_pool
    WHERE network = $1 AND chain = $2
    ORDER BY address_index LIMIT $3::int
    FOR UPDATE SKIP LOCKED
  ), taken AS (
    DELETE FROM deposit_address_pool AS pool USING picked
    WHERE pool.key_tree = picked.key_tree AND pool.address_index = picked.address_index AND ${takeWhen}
    RETURNING pool.address_index, pool.address, pool.qr_code
  ), noticed AS (
    INSERT INTO deposit_address_pool_demand (network, chain) VALUES ($1, $2) ON CONFLICT DO NOTHING
  ), refreshed AS (
    -- At most once a minute, so takers do not all write (and lock) the same row.
    UPDATE deposit_address_pool_demand SET last_taken_at = now()
    WHERE network = $1 AND chain = $2 AND last_taken_at < now() - interval '1 minute'
  )`;
}

/** See takePooledOrReserve. $1 network, $2 chain, $3 count, $4 key tree. */
const TAKE_POOLED_OR_RESERVE = `
  WITH ${pooledTakingSteps("true")}, shortfall AS (
    SELECT $3::int - (SELECT count(*)::int FROM picked) AS missing
  ), moved AS (
    INSERT INTO address_counters (key_tree, next_index)
    SELECT $4::text, missing FROM shortfall WHERE missing > 0
    ON CONFLICT (key_tree) DO UPDATE SET next_index = address_counters.next_index + EXCLUDED.next_index
    RETURNING next_index - (SELECT missing FROM shortfall) AS first, (SELECT missing FROM shortfall) AS missing
  )
  SELECT address_index, address, qr_code, NULL::int AS reserved FROM taken
  UNION ALL
  SELECT first, NULL, NULL, missing FROM moved
  ORDER BY reserved NULLS FIRST, address_index`;

/** See takePooledAddresses. $1 network, $2 chain, $3 count, $4 minimum. */
const TAKE_POOLED = `
  WITH ${pooledTakingSteps("(SELECT count(*) FROM picked) >= $4::int")}
  SELECT address_index, address, qr_code FROM taken ORDER BY address_index`;

/**
 * Takes up to `count` pooled addresses of the network and chain (none unless at least `minimum`
 * are free), lowest index first, in one statement, and never moves the counter: for pool-only
 * networks. The rows are deleted as they are handed out, and SKIP LOCKED leaves rows another
 * taker holds to that taker, so one address never goes to two invoices; inside a transaction
 * that rolls back, the rows return to the pool.
 */
async function takePooledAddresses(db: Db | Tx, network: NetworkId, chain: AddressChain, count: number, minimum: number): Promise<AllocatedAddress[]> {
  const rows = await queryRows<{ address_index: number; address: string; qr_code: string }>(db, TAKE_POOLED, [network, chain, count, minimum]);
  return rows.map((row) => {
    rememberQrCode(row.address, row.qr_code);
    return { address: row.address, index: Number(row.address_index) };
  });
}

/**
 * Takes up to `count` pooled addresses of the network and chain, lowest index first, records the
 * demand address-pool.fill reads, and moves the key tree's counter past indexes for the rest, in
 * one statement. SKIP LOCKED: concurrent takers each get other rows instead of waiting, and a row
 * deleted inside a transaction that rolls back returns to the pool unused.
 */
async function takePooledOrReserve(db: Db | Tx, network: NetworkId, chain: AddressChain, count: number): Promise<{ pooled: AllocatedAddress[]; reserved: number[] }> {
  const rows = await queryRows<{ address_index: number; address: string | null; qr_code: string | null; reserved: number | null }>(db, TAKE_POOLED_OR_RESERVE, [
    network,
    chain,
    count,
    getKeyTree(network),
  ]);
  const pooled: AllocatedAddress[] = [];
  const reserved: number[] = [];
  for (const row of rows) {
    if (row.reserved === null) {
      rememberQrCode(row.address!, row.qr_code!);
      pooled.push({ address: row.address!, index: Number(row.address_index) });
    } else {
      const first = Number(row.address_index);
      for (let offset = 0; offset < Number(row.reserved); offset++) reserved.push(first + offset);
    }
  }
  return { pooled, reserved };
}

/**
 * Moves the network's key-tree counter by `count` in one statement and returns the indexes it
 * passed over. The counter never goes back, so these indexes belong to the caller alone.
 */
export async function reserveAddressIndexes(db: Db | Tx, network: NetworkId, count: number): Promise<number[]> {
  const [row] = await db.$queryRaw<{ first: number }[]>`
    INSERT INTO address_counters (key_tree, next_index) VALUES (${getKeyTree(network)}, ${count}::int)
    ON CONFLICT (key_tree) DO UPDATE SET next_index = address_counters.next_index + ${count}::int
    RETURNING next_index - ${count}::int AS first`;
  const first = Number(row.first);
  return Array.from({ length: count }, (_, offset) => first + offset);
}

/** The deposit addresses of a network at the given indexes (no I/O). */
export function deriveAddressesAt(keys: KeyMaterial, network: NetworkId, chain: AddressChain, indexes: readonly number[]): AllocatedAddress[] {
  const family = familyOf(network);
  if (indexes.length === 0) return [];
  if (ED25519_FAMILIES.has(family)) {
    const seed = keys.openSeed();
    return indexes.map((index) => ({ address: deriveEd25519DepositAddress({ network, seed, index, chain }).address, index }));
  }
  return deriveDepositAddresses({ network, accountXpub: accountXpubOf(keys, network, chain), indexes, chain }).map((derived, position) => ({
    address: derived.address,
    index: indexes[position],
  }));
}

function familyOf(network: NetworkId) {
  const family = findNetwork(network)?.family;
  if (!family) throw new Error(`unknown network ${network}`);
  return family;
}

function accountXpubOf(keys: KeyMaterial, network: NetworkId, chain: AddressChain): string {
  const accountXpub = keys.xpubsFor(chain)[network];
  if (!accountXpub) throw new Error(`no account key for ${network}`);
  return accountXpub;
}

/**
 * The deposit addresses of a network at the given indexes with their QR codes, for addresses made
 * ahead (the pool, a process's reserve): those of xpub networks made on a derivation thread (see
 * derivation-threads.ts), those of ed25519 networks, which need the seed, here.
 */
export async function deriveAddressesWithQrCodesAt(
  keys: KeyMaterial,
  network: NetworkId,
  chain: AddressChain,
  indexes: readonly number[],
): Promise<ReadyAddress[]> {
  if (indexes.length === 0) return [];
  if (ED25519_FAMILIES.has(familyOf(network))) {
    return Promise.all(deriveAddressesAt(keys, network, chain, indexes).map(async (derived) => ({ ...derived, qrCode: await renderQrCode(derived.address) })));
  }
  const { addresses, qrCodes } = await deriveWithQrCodes({ network, chain, accountXpub: accountXpubOf(keys, network, chain), indexes });
  if (addresses.length !== indexes.length || qrCodes.length !== indexes.length) throw new Error(`a derivation answered ${addresses.length} addresses for ${indexes.length} indexes`);
  return addresses.map((address, position) => ({ address, index: indexes[position], qrCode: qrCodes[position] }));
}
