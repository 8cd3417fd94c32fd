import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { getTestDb, getTestSecretBox, makeMerchant } from "@/lib/testing/harness";
import { createApiKeyCache, type ApiKeyCache } from "./api-key-cache";
import { findActiveApiKey } from "./api-keys";
import type { ActiveApiKey } from "./api-key-identity";

// A PostgreSQL server's behaviour (notices between sessions): this file runs in the PostgreSQL pass only.
let cache: ApiKeyCache | undefined;
afterEach(async () => {
  await cache?.close();
  cache = undefined;
});

/** A loader counting its database reads, as the dispatcher passes one. */
function countingLoader(publicId: string) {
  const loader = Object.assign(() => {
    loader.reads++;
    return findActiveApiKey(getTestDb(), getTestSecretBox(), publicId);
  }, { reads: 0 });
  return loader;
}

/** A statement run by a connection of its own, as another process (the CLI, an operator) would. */
async function fromAnotherProcess(sql: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

async function startedCache(): Promise<ApiKeyCache> {
  cache = createApiKeyCache({ connectionString: inject("databaseUrl"), db: getTestDb() });
  await expect.poll(() => cache!.isActive(), { timeout: 5_000, interval: 20 }).toBe(true);
  return cache;
}

describe("the API key cache on PostgreSQL", () => {
  it("reads a key once, then answers from memory until a change to the key, its allow-list, its switch or its invoice terms is announced", async () => {
    const cache = await startedCache();
    const merchant = await makeMerchant();
    const load = countingLoader(merchant.publicId);
    const first = await cache.find(merchant.publicId, load);
    expect(first).toMatchObject({
      merchantId: merchant.merchantId,
      secret: merchant.secret,
      allowlist: { enabled: false, entries: [] },
      invoiceTerms: { feePercentBps: null, feeFixedUsdMinor: null, accuracyBps: 0 },
    });
    expect(await cache.find(merchant.publicId, load)).toBe(first);
    expect(load.reads).toBe(1);

    // A change of another merchant's allow-list forgets that merchant's keys only.
    const other = await makeMerchant();
    const loadOther = countingLoader(other.publicId);
    await cache.find(other.publicId, loadOther);
    await fromAnotherProcess(`INSERT INTO allowlist_entries (merchant_id, cidr) VALUES ($1, '10.0.0.0/8')`, [other.merchantId]);
    await expect.poll(async () => (await cache.find(other.publicId, loadOther), loadOther.reads), { timeout: 2_000, interval: 5 }).toBe(2);
    expect(await cache.find(merchant.publicId, load)).toBe(first);
    expect(load.reads).toBe(1);

    // Each change made elsewhere reaches the cache through its notice, not through a read.
    const changes: [string, unknown[], (key: ActiveApiKey | null) => void][] = [
      [`INSERT INTO allowlist_entries (merchant_id, cidr) VALUES ($1, '10.0.0.0/8')`, [merchant.merchantId], (key) => expect(key!.allowlist.entries).toEqual(["10.0.0.0/8"])],
      [`UPDATE merchants SET allowlist_enabled = true WHERE id = $1`, [merchant.merchantId], (key) => expect(key!.allowlist.enabled).toBe(true)],
      [`DELETE FROM allowlist_entries WHERE merchant_id = $1`, [merchant.merchantId], (key) => expect(key!.allowlist.entries).toEqual([])],
      // `gateway merchant set-fee` from the operator's shell: the next invoice takes the new fee.
      [`UPDATE merchants SET fee_percent_bps = 75, fee_fixed_usd_minor = 10 WHERE id = $1`, [merchant.merchantId], (key) => expect(key!.invoiceTerms).toMatchObject({ feePercentBps: 75, feeFixedUsdMinor: 10n })],
      [`UPDATE merchants SET accuracy_bps = 50 WHERE id = $1`, [merchant.merchantId], (key) => expect(key!.invoiceTerms.accuracyBps).toBe(50)],
      [`UPDATE api_keys SET revoked_at = now() WHERE public_id = $1`, [merchant.publicId], (key) => expect(key).toBeNull()],
    ];
    for (const [sql, values, check] of changes) {
      const readsBefore = load.reads;
      await fromAnotherProcess(sql, values);
      await expect.poll(async () => (await cache.find(merchant.publicId, load), load.reads), { timeout: 2_000, interval: 5 }).toBeGreaterThan(readsBefore);
      check(await cache.find(merchant.publicId, load));
    }
    // An unknown (here: revoked) key is never kept: every request reads it.
    const readsBefore = load.reads;
    await cache.find(merchant.publicId, load);
    await cache.find(merchant.publicId, load);
    expect(load.reads).toBe(readsBefore + 2);
  });

  it("does not keep what a read returned when a change was announced while it ran", async () => {
    const cache = await startedCache();
    const merchant = await makeMerchant();
    let reads = 0;
    const slowLoad = async () => {
      reads++;
      const key = await findActiveApiKey(getTestDb(), getTestSecretBox(), merchant.publicId);
      cache.forgetAll(); // a change committed after this read's snapshot
      return key;
    };
    expect(await cache.find(merchant.publicId, slowLoad)).not.toBeNull();
    await cache.find(merchant.publicId, slowLoad);
    expect(reads).toBe(2);
  });

  it("reads every key while its listener is gone, and keeps them again once it is back", async () => {
    const cache = await startedCache();
    const merchant = await makeMerchant();
    const load = countingLoader(merchant.publicId);
    await cache.find(merchant.publicId, load);
    await cache.find(merchant.publicId, load);
    expect(load.reads).toBe(1);

    // The listener's connection is cut (a database restart, a network fault).
    await fromAnotherProcess(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`, []);
    await expect.poll(() => cache.isActive(), { timeout: 2_000, interval: 5 }).toBe(false);
    await cache.find(merchant.publicId, load);
    await cache.find(merchant.publicId, load);
    expect(load.reads).toBe(3);
    // A revocation while nobody listened is seen: the cache starts empty when it hears again.
    await fromAnotherProcess(`UPDATE api_keys SET revoked_at = now() WHERE public_id = $1`, [merchant.publicId]);
    await expect.poll(() => cache.isActive(), { timeout: 10_000, interval: 50 }).toBe(true);
    expect(await cache.find(merchant.publicId, load)).toBeNull();
  });
  it("tries its probe again when the first notice comes too late (a slow database at start)", async () => {
    // The first probe's notice is sent only after the listener has stopped waiting for it.
    let probes = 0;
    const db = getTestDb();
    const slowFirstProbe = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== "$executeRaw") return Reflect.get(target, property, receiver);
        return async (...args: Parameters<typeof db.$executeRaw>) => {
          if (++probes > 1) return target.$executeRaw(...args);
          // The slow database itself: the notice goes out after the 200 ms the listener waits.
          setTimeout(() => void target.$executeRaw(...args), 400);
          return 1;
        };
      },
    });
    cache = createApiKeyCache({ connectionString: inject("databaseUrl"), db: slowFirstProbe, probeTimeoutMs: 200 });
    await expect.poll(() => probes, { timeout: 5_000, interval: 5 }).toBe(1);
    expect(cache.isActive()).toBe(false);
    await expect.poll(() => cache!.isActive(), { timeout: 5_000, interval: 20 }).toBe(true);
    expect(probes).toBe(2);

    const merchant = await makeMerchant();
    const load = countingLoader(merchant.publicId);
    await cache.find(merchant.publicId, load);
    await cache.find(merchant.publicId, load);
    expect(load.reads).toBe(1);
  });
});

describe("the API key cache on the embedded database", () => {
  it("stays off, because the single shared session cannot deliver a notice to another connection: every lookup reads the key", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-key-cache-"));
    const embedded = await startEmbeddedDatabase(dataDir);
    const db = createDb(embedded.url, { poolSize: 2 });
    let probes = 0;
    const countingProbes = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== "$executeRaw") return Reflect.get(target, property, receiver);
        return (...args: Parameters<typeof db.$executeRaw>) => (probes++, target.$executeRaw(...args));
      },
    });
    try {
      cache = createApiKeyCache({ connectionString: embedded.url, db: countingProbes });
      // The first probe waits 3 s for its notice; a second one is sent only once that went unheard.
      await expect.poll(() => probes, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(2);
      expect(cache.isActive()).toBe(false);
      const key: ActiveApiKey = {
        publicId: "pk_embedded",
        kind: "unified",
        secret: "sk_embedded",
        merchantId: "m",
        allowlist: { enabled: false, entries: [] },
        invoiceTerms: { feePercentBps: null, feeFixedUsdMinor: null, accuracyBps: 0 },
      };
      let reads = 0;
      const load = async () => (reads++, key);
      await cache.find(key.publicId, load);
      await cache.find(key.publicId, load);
      expect(reads).toBe(2);
    } finally {
      await cache?.close();
      cache = undefined;
      await db.$disconnect();
      await embedded.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
