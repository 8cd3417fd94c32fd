import { beforeAll, describe, expect, it } from "vitest";
import { listNetworks, type NetworkId } from "@/lib/catalogue";
import { countWalletSeedUses, isSealedUnderSeedKey, SeedKeyMissingError, WALLET_SEED_CONTEXT, WalletSeedRefusedError, withoutWalletSeed, withSeedKey } from "@/lib/crypto/secret-box";
import { AppError } from "@/lib/errors/app-error";
import { getTestDb, getTestSecretBox, makeTestDeps } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { ADDRESS_CHAINS, createRandomMasterSeed, deriveAccountXpubs, deriveDepositAddress } from "./addresses";
import { allocateDepositAddress, takeDepositAddress } from "./allocate-address";
import { hotWalletAddress } from "./hot-wallet";
import { loadKeyMaterial } from "./key-material";
import { deriveSigningKey, HOT_WALLET_INDEX } from "./signing-keys";

const ownDatabase = useOwnDatabasePerFile("key_material");

describe("the key material of a web-only process (GATEWAY_WORKER=off)", () => {
  // The keys exist before a web-only process reads them: a process with the worker makes them.
  beforeAll(() => loadKeyMaterial(getTestDb(), getTestSecretBox()));

  it("refuses the seed through its deps, loudly, and counts the attempt", async () => {
    const web = makeTestDeps({}, { GATEWAY_WORKER: "off" });
    const keys = await loadKeyMaterial(web.db, web.secretBox);
    expect(keys.canOpenSeed).toBe(false);
    const before = countWalletSeedUses();
    expect(() => keys.openSeed()).toThrow(WalletSeedRefusedError);
    const sealed = (await web.db.serviceSetting.findUniqueOrThrow({ where: { key: "hd_seed" } })).value;
    expect(() => web.secretBox.open(sealed, WALLET_SEED_CONTEXT)).toThrow(WalletSeedRefusedError);
    expect(countWalletSeedUses()).toEqual({ opened: before.opened, refused: before.refused + 2 });
    // The same database and master key with the worker: the seed opens.
    expect((await loadKeyMaterial(web.db, makeTestDeps().secretBox)).canOpenSeed).toBe(true);
  });

  it("knows every hot wallet address and test-chain xpub without the seed, as the seed derives them", async () => {
    const signing = await loadKeyMaterial(makeTestDeps().db, getTestSecretBox());
    const web = await loadKeyMaterial(makeTestDeps().db, withoutWalletSeed(getTestSecretBox()));
    const seed = signing.openSeed();
    const before = countWalletSeedUses();
    for (const chain of ADDRESS_CHAINS) {
      expect(web.xpubsFor(chain)).toEqual(chain === "main" ? signing.xpubs : deriveAccountXpubs(seed, { chain }));
      for (const network of listNetworks()) {
        const id = network.id as NetworkId;
        expect(hotWalletAddress(web, id, chain)).toBe(deriveSigningKey(seed, id, HOT_WALLET_INDEX, chain).address);
      }
    }
    expect(countWalletSeedUses()).toEqual(before);
  });

  it("takes Solana and TON deposit addresses from the pool alone: an empty pool answers invoice.address_failed, xpub networks derive as before", async () => {
    const web = await loadKeyMaterial(makeTestDeps().db, withoutWalletSeed(getTestSecretBox()));
    const db = makeTestDeps().db;
    // The regtest TON pool is filled by no other test, and nothing fills it here.
    await expect(allocateDepositAddress(db, web, "ton", "regtest")).rejects.toMatchObject({ code: "invoice.address_failed" });
    await expect(takeDepositAddress(db, web, "ton", "regtest")).rejects.toBeInstanceOf(AppError);
    const dogecoin = await allocateDepositAddress(db, web, "dogecoin", "main");
    expect(dogecoin.address).toBe(deriveDepositAddress({ network: "dogecoin", accountXpub: web.xpubs.dogecoin!, index: dogecoin.index }).address);
  });
});

describe("keys on a database of their own", () => {
  it("are not created by a web-only process; keys made before the public record get it from the first process with the seed", async () => {
    const { db } = ownDatabase();
    const box = getTestSecretBox();
    // A passing state for the caller: 503 request.busy, retried once a worker has started.
    await expect(loadKeyMaterial(db, withoutWalletSeed(box))).rejects.toMatchObject({ code: "request.busy", message: expect.stringMatching(/No wallet keys yet/) });

    // Keys as an older version stored them: the seed and the mainnet xpubs, nothing else.
    const { seed } = createRandomMasterSeed();
    await db.serviceSetting.createMany({
      data: [
        { key: "hd_seed", value: box.seal(Buffer.from(seed).toString("hex"), WALLET_SEED_CONTEXT) },
        { key: "hd_account_xpubs", value: JSON.stringify(deriveAccountXpubs(seed)) },
      ],
    });
    const early = await loadKeyMaterial(db, withoutWalletSeed(getTestSecretBox()));
    expect(() => early.xpubsFor("test")).toThrow(/not recorded yet/);
    expect(() => hotWalletAddress(early, "solana", "main")).toThrow(/not recorded yet/);
    // Mainnet hot wallets of xpub networks need no record.
    expect(hotWalletAddress(early, "tron", "main")).toBe(deriveSigningKey(seed, "tron", HOT_WALLET_INDEX).address);

    await loadKeyMaterial(db, getTestSecretBox());
    const later = await loadKeyMaterial(db, withoutWalletSeed(getTestSecretBox()));
    expect(later.xpubsFor("regtest")).toEqual(deriveAccountXpubs(seed, { chain: "regtest" }));
    expect(hotWalletAddress(later, "ton", "test")).toBe(deriveSigningKey(seed, "ton", HOT_WALLET_INDEX, "test").address);
  });
});

describe("a seed key (GATEWAY_SEED_KEY) given only to processes with the worker", () => {
  it("reseals a seed made under the master key once, however many workers start together; keys stay the same and the master key alone no longer opens it", async () => {
    const { db } = ownDatabase();
    await db.serviceSetting.deleteMany({ where: { key: { in: ["hd_seed", "hd_account_xpubs", "hd_public_keys"] } } });
    const masterOnly = await loadKeyMaterial(db, getTestSecretBox());
    const seed = masterOnly.openSeed();
    const seedKey = Buffer.alloc(32, 0x5e);

    // Cached per box: each start below is a process of its own.
    const workers = await Promise.all(Array.from({ length: 4 }, () => loadKeyMaterial(db, withSeedKey(getTestSecretBox(), seedKey))));
    const sealed = (await db.serviceSetting.findUniqueOrThrow({ where: { key: "hd_seed" } })).value;
    expect(isSealedUnderSeedKey(sealed)).toBe(true);
    for (const worker of workers) {
      expect(worker.openSeed()).toEqual(seed);
      expect(worker.xpubs).toEqual(masterOnly.xpubs);
    }

    // A web process holds the master key, yet cannot open the seed, even past its own refusal.
    expect(() => getTestSecretBox().open(sealed, WALLET_SEED_CONTEXT)).toThrow(SeedKeyMissingError);
    // A worker started without the seed key is told what is missing.
    const withoutSeedKey = await loadKeyMaterial(db, getTestSecretBox());
    expect(() => withoutSeedKey.openSeed()).toThrow(/GATEWAY_SEED_KEY/);
    // A later start finds it sealed under the seed key already and leaves it.
    await loadKeyMaterial(db, withSeedKey(getTestSecretBox(), seedKey));
    expect((await db.serviceSetting.findUniqueOrThrow({ where: { key: "hd_seed" } })).value).toBe(sealed);
    const web = await loadKeyMaterial(db, withoutWalletSeed(getTestSecretBox()));
    expect(hotWalletAddress(web, "solana", "main")).toBe(deriveSigningKey(seed, "solana", HOT_WALLET_INDEX).address);
  });

  it("seals a new seed under the seed key from the first start", async () => {
    const { db } = ownDatabase();
    await db.serviceSetting.deleteMany({ where: { key: { in: ["hd_seed", "hd_account_xpubs", "hd_public_keys"] } } });
    const worker = await loadKeyMaterial(db, withSeedKey(getTestSecretBox(), Buffer.alloc(32, 0x6f)));
    const sealed = (await db.serviceSetting.findUniqueOrThrow({ where: { key: "hd_seed" } })).value;
    expect(isSealedUnderSeedKey(sealed)).toBe(true);
    expect(deriveAccountXpubs(worker.openSeed())).toEqual(worker.xpubs);
  });
});
