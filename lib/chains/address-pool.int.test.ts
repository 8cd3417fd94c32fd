import { beforeAll, describe, expect, it } from "vitest";
import { createApiDeps, type ApiDeps } from "@/lib/api/deps";
import type { Db } from "@/lib/db/client";
import type { NetworkId } from "@/lib/catalogue";
import { processOneBatch } from "@/lib/jobs/handlers/process-batches";
import { callSigned, getTestSecretBox, makeMerchant, makeTestConfig } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { deriveDepositAddress, deriveEd25519DepositAddress, type AddressChain } from "./addresses";
import { renderQrCode } from "./addresses/qr-code";
import { ADDRESS_POOL_LOW_WATER, ADDRESS_POOL_TARGET, fillAddressPools, topUpAddressPool } from "./address-pool";
import { allocateDepositAddress } from "./allocate-address";
import { loadKeyMaterial, type KeyMaterial } from "./key-material";

// A database of this file's own: every Solana and TON pool is topped up by the pool job, which
// other files run; here the pools hold only what these tests put in them.
const own = useOwnDatabasePerFile("address_pool");
let db: Db;
let deps: ApiDeps;
let jobDeps: { db: Db; secretBox: ReturnType<typeof getTestSecretBox>; config: ReturnType<typeof makeTestConfig> };
beforeAll(() => {
  db = own().db;
  const config = makeTestConfig({ DATABASE_URL: own().url });
  deps = createApiDeps(config, db, getTestSecretBox());
  jobDeps = { db, secretBox: getTestSecretBox(), config };
});

/** Derived here from the key material, independently of the pool and the allocator. */
function expectedAddress(keys: KeyMaterial, network: NetworkId, index: number, chain: AddressChain = "main"): string {
  if (network === "solana" || network === "ton") return deriveEd25519DepositAddress({ network, seed: keys.openSeed(), index, chain }).address;
  return deriveDepositAddress({ network, accountXpub: keys.xpubsFor(chain)[network]!, index, chain }).address;
}

async function processAllBatches() {
  while (await processOneBatch(deps));
}

describe("the deposit address pool", () => {
  it.each([
    { network: "dogecoin" as NetworkId, payment: { amount: "25.00", currency: "USD", to_currency: "DOGE", network: "dogecoin" } },
    { network: "solana" as NetworkId, payment: { amount: "5.00", currency: "USD", to_currency: "SOL", network: "solana" } },
  ])("hands each $network address to exactly one invoice while creations race refills", async ({ network, payment }) => {
    const keys = await loadKeyMaterial(db, getTestSecretBox());
    const pooledIndexes = new Set<number>();
    const refill = async (count: number) => (await topUpAddressPool(db, keys, network, "main", count)).forEach((index) => pooledIndexes.add(index));
    // 60 pooled addresses for 100 invoices: some come from the pool, the rest are derived inline.
    await refill(20);
    const merchant = await makeMerchant({ deps });
    const batch = await callSigned("/v1/payment/batch", { payments: Array.from({ length: 40 }, () => payment) }, merchant, { deps });
    expect(batch.status).toBe(200);

    const [answers] = await Promise.all([
      Promise.all(Array.from({ length: 60 }, () => callSigned("/v1/payment", payment, merchant, { deps }))),
      processAllBatches(),
      (async () => {
        for (let round = 0; round < 3; round++) await refill(10);
      })(),
      refill(10),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const info = (await callSigned("/v1/batch/info", { batch_id: batch.body.result.batch_id, limit: 100 }, merchant, { deps })).body.result;
    expect(info).toMatchObject({ status: "completed", succeeded: 40 });
    const answered = [...answers.map((answer) => answer.body.result), ...info.items.map((item: { result: unknown }) => item.result)];
    for (const result of answered) expect(result.address_qr_code).toBe(await renderQrCode(result.address));

    const invoices = await db.invoice.findMany({ where: { merchantId: merchant.merchantId }, select: { address: true, addressIndex: true } });
    expect(invoices).toHaveLength(100);
    expect(new Set(invoices.map((invoice) => invoice.address)).size).toBe(100);
    expect(new Set(invoices.map((invoice) => invoice.addressIndex)).size).toBe(100);
    for (const invoice of invoices) expect(invoice.address).toBe(expectedAddress(keys, network, invoice.addressIndex!));
    expect(invoices.some((invoice) => pooledIndexes.has(invoice.addressIndex!))).toBe(true);
    expect(invoices.some((invoice) => !pooledIndexes.has(invoice.addressIndex!))).toBe(true);
    // A taken address has left the pool.
    const addresses = invoices.map((invoice) => invoice.address!);
    expect(await db.depositAddressPoolEntry.count({ where: { address: { in: addresses } } })).toBe(0);
  });

  it("is filled for networks that took an address in the last hour, and only below the low-water mark", async () => {
    // The litecoin test chain is used by no other test: its demand and pool are this test's alone.
    const network: NetworkId = "litecoin";
    const chain: AddressChain = "test";
    const pool = { network, chain };
    const keys = await loadKeyMaterial(db, getTestSecretBox());
    const poolSize = () => db.depositAddressPoolEntry.count({ where: pool });
    const fillOwnNetwork = async () => (await fillAddressPools(jobDeps, { onlyNetworks: [network] })).find((fill) => fill.chain === chain);

    expect(await fillOwnNetwork()).toBeUndefined();
    expect(await poolSize()).toBe(0);

    const inline = await allocateDepositAddress(db, keys, network, chain);
    expect(inline.address).toBe(expectedAddress(keys, network, inline.index, chain));
    expect(await fillOwnNetwork()).toEqual({ network, chain, added: ADDRESS_POOL_TARGET });
    const entries = await db.depositAddressPoolEntry.findMany({ where: pool, orderBy: { addressIndex: "asc" } });
    expect(entries).toHaveLength(ADDRESS_POOL_TARGET);
    expect(entries[0].addressIndex).toBeGreaterThan(inline.index);
    for (const entry of entries.slice(0, 5)) {
      expect(entry.address).toBe(expectedAddress(keys, network, entry.addressIndex, chain));
      expect(entry.qrCode).toBe(await renderQrCode(entry.address));
    }

    const taken = await allocateDepositAddress(db, keys, network, chain);
    expect(taken).toEqual({ address: entries[0].address, index: entries[0].addressIndex });
    expect(await poolSize()).toBe(ADDRESS_POOL_TARGET - 1);
    expect(await fillOwnNetwork()).toBeUndefined();

    await db.depositAddressPoolEntry.deleteMany({ where: { ...pool, addressIndex: { lte: entries[ADDRESS_POOL_LOW_WATER].addressIndex } } });
    expect(await poolSize()).toBe(ADDRESS_POOL_LOW_WATER - 1);
    await db.depositAddressPoolDemand.update({ where: { network_chain: pool }, data: { lastTakenAt: new Date(Date.now() - 2 * 3600_000) } });
    expect(await fillOwnNetwork()).toBeUndefined();
    expect(await poolSize()).toBe(ADDRESS_POOL_LOW_WATER - 1);
  });
});
