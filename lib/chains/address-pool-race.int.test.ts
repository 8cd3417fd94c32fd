import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { countWalletSeedUses, withoutWalletSeed } from "@/lib/crypto/secret-box";
import { AppError } from "@/lib/errors/app-error";
import { getTestSecretBox, makeTestConfig } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { deriveEd25519DepositAddress } from "./addresses";
import { fillAddressPool, fillAddressPools } from "./address-pool";
import { allocateDepositAddress, takeDepositAddress, type AllocatedAddress } from "./allocate-address";
import { loadKeyMaterial } from "./key-material";

// A database of this file's own: the counts below are exact only if no other file takes from these pools.
const ownDatabase = useOwnDatabasePerFile("address_pool_race");
const clients: ReturnType<typeof createDb>[] = [];
afterAll(() => Promise.all(clients.map((client) => client.$disconnect())));

describe("Solana and TON address pools under races", () => {
  it("fill idempotently: fillers racing on a pool leave it as one filler would", async () => {
    const { db, url } = ownDatabase();
    const other = createDb(url, { poolSize: 4 });
    clients.push(other);
    const keys = await loadKeyMaterial(db, getTestSecretBox());
    const target = () => 40;
    const pool = { network: "ton", chain: "main" } as const;

    const race = () =>
      Promise.all(Array.from({ length: 8 }, (_, position) => fillAddressPool(position % 2 ? other : db, keys, pool.network, pool.chain, target)));
    const first = await race();
    expect(first.filter((added) => added !== null && added.length > 0)).toHaveLength(1);
    expect(await db.depositAddressPoolEntry.count({ where: pool })).toBe(40);

    // Above half: nobody adds.
    await db.depositAddressPoolEntry.deleteMany({ where: { ...pool, addressIndex: { in: (await db.depositAddressPoolEntry.findMany({ where: pool, take: 15, orderBy: { addressIndex: "asc" } })).map((entry) => entry.addressIndex) } } });
    expect((await race()).every((added) => added === null || added.length === 0)).toBe(true);
    expect(await db.depositAddressPoolEntry.count({ where: pool })).toBe(25);

    // Below half: one top-up to the target, whoever wins.
    const lowest = await db.depositAddressPoolEntry.findMany({ where: pool, take: 6, orderBy: { addressIndex: "asc" } });
    await db.depositAddressPoolEntry.deleteMany({ where: { ...pool, addressIndex: { in: lowest.map((entry) => entry.addressIndex) } } });
    expect(await db.depositAddressPoolEntry.count({ where: pool })).toBe(19);
    await race();
    expect(await db.depositAddressPoolEntry.count({ where: pool })).toBe(40);

    // The job as the worker runs it, several workers at once, for every Solana and TON network the sandbox serves.
    const deps = { db, secretBox: getTestSecretBox(), config: makeTestConfig({ GATEWAY_ADDRESS_POOL_SIZE: "30" }) };
    const fills = await Promise.all(Array.from({ length: 4 }, (_, position) => fillAddressPools({ ...deps, db: position % 2 ? other : db })));
    expect(fills.flat().filter((fill) => fill.network === "solana")).toEqual([{ network: "solana", chain: "main", added: 30 }]);
    expect(await db.depositAddressPoolEntry.count({ where: { network: "solana", chain: "main" } })).toBe(30);
    expect(await db.depositAddressPoolEntry.count({ where: pool })).toBe(40);

    const entries = await db.depositAddressPoolEntry.findMany({ where: { network: { in: ["ton", "solana"] } } });
    const seed = keys.openSeed();
    expect(new Set(entries.map((entry) => entry.address)).size).toBe(entries.length);
    for (const entry of entries.slice(0, 10)) {
      expect(entry.address).toBe(deriveEd25519DepositAddress({ network: entry.network as "ton" | "solana", seed, index: entry.addressIndex, chain: "main" }).address);
    }
  });

  it("hand each address out once to takers racing on several connections, in and out of transactions, without the seed", async () => {
    const { db, url } = ownDatabase();
    const others = [createDb(url, { poolSize: 4 }), createDb(url, { poolSize: 4 })];
    clients.push(...others);
    const signing = await loadKeyMaterial(db, getTestSecretBox());
    const pool = { network: "ton", chain: "test" } as const;
    const added = await fillAddressPool(db, signing, pool.network, pool.chain, () => 300);
    expect(added).toHaveLength(300);
    const web = await loadKeyMaterial(db, withoutWalletSeed(getTestSecretBox()));
    const seedUsesBefore = countWalletSeedUses();

    const clientsOf = [db, ...others];
    type Outcome = { kept: AllocatedAddress } | { rolledBack: AllocatedAddress } | { refused: unknown };
    const takers = Array.from({ length: 450 }, async (_, position): Promise<Outcome> => {
      const client = clientsOf[position % clientsOf.length];
      try {
        switch (position % 4) {
          case 0:
            return { kept: await allocateDepositAddress(client, web, pool.network, pool.chain) };
          case 1:
            return { kept: await takeDepositAddress(client, web, pool.network, pool.chain) };
          case 2:
            return { kept: await withTransaction(client, (tx) => allocateDepositAddress(tx, web, pool.network, pool.chain)) };
          default: {
            // A transaction that takes an address and then fails: the address returns to the pool.
            let taken: AllocatedAddress | undefined;
            await withTransaction(client, async (tx) => {
              taken = await allocateDepositAddress(tx, web, pool.network, pool.chain);
              throw new Error("rolled back");
            }).catch((error) => {
              if (!taken) throw error;
            });
            return { rolledBack: taken! };
          }
        }
      } catch (error) {
        return { refused: error };
      }
    });
    const outcomes = await Promise.all(takers);

    const kept = outcomes.flatMap((outcome) => ("kept" in outcome ? [outcome.kept] : []));
    const refused = outcomes.flatMap((outcome) => ("refused" in outcome ? [outcome.refused] : []));
    for (const error of refused) expect(error).toMatchObject({ code: "invoice.address_failed" } satisfies Partial<AppError>);
    expect(new Set(kept.map((taken) => taken.address)).size).toBe(kept.length);
    expect(new Set(kept.map((taken) => taken.index)).size).toBe(kept.length);
    const left = await db.depositAddressPoolEntry.findMany({ where: pool });
    // Every pooled address is either kept by exactly one taker or still in the pool (rolled-back ones returned).
    expect(kept.length + left.length).toBe(300);
    expect(kept.filter((taken) => left.some((entry) => entry.address === taken.address))).toEqual([]);
    expect(kept.every((taken) => added!.includes(taken.index))).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(countWalletSeedUses()).toEqual(seedUsesBefore);
  });
});
