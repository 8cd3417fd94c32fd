import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { createRandomMasterSeed, deriveAccountXpubs, type AccountXpubs, type AddressChain } from "./addresses";

const XPUBS_KEY = "hd_account_xpubs";
const SEED_KEY = "hd_seed";
const SEED_CONTEXT = "service-setting:hd_seed";

/**
 * The service's deposit-address key material. UTXO, EVM and Tron addresses derive from
 * account extended public keys, stored in the clear: the request path needs nothing secret.
 * Solana and TON (ed25519) cannot derive publicly, so their addresses need the seed, which is
 * kept sealed under the master key and opened only by `openSeed` when such an address is made.
 */
export interface KeyMaterial {
  /** Mainnet account xpubs. */
  xpubs: AccountXpubs;
  /** Account xpubs for the address formats of a chain (test and regtest nodes use coin type 1). */
  xpubsFor(chain: AddressChain): AccountXpubs;
  openSeed(): Uint8Array;
}

const globalForKeys = globalThis as unknown as { gatewayKeyMaterial?: { box: SecretBox; keys: Promise<KeyMaterial> } };

/**
 * Loads the key material, creating it on first use (race-safe: the first writer wins). Cached: it
 * never changes. Concurrent first callers share one load, so a burst at start does not make and
 * derive a seed per request. Never inside a transaction: a seed created there and cached would
 * outlive a rollback.
 */
export function loadKeyMaterial(db: Db, box: SecretBox): Promise<KeyMaterial> {
  const cached = globalForKeys.gatewayKeyMaterial;
  if (cached && cached.box === box) return cached.keys;
  const keys = readOrCreateKeyMaterial(db, box);
  const entry = { box, keys };
  globalForKeys.gatewayKeyMaterial = entry;
  // A failed load is not kept: the next caller tries again.
  keys.catch(() => {
    if (globalForKeys.gatewayKeyMaterial === entry) globalForKeys.gatewayKeyMaterial = undefined;
  });
  return keys;
}

async function readOrCreateKeyMaterial(db: Db, box: SecretBox): Promise<KeyMaterial> {
  let rows = await db.serviceSetting.findMany({ where: { key: { in: [XPUBS_KEY, SEED_KEY] } } });
  if (rows.length < 2) {
    const { seed } = createRandomMasterSeed();
    const sealedSeed = box.seal(Buffer.from(seed).toString("hex"), SEED_CONTEXT);
    // Both rows in one statement, so no reader ever sees xpubs without their seed.
    await db.serviceSetting.createMany({
      data: [
        { key: SEED_KEY, value: sealedSeed },
        { key: XPUBS_KEY, value: JSON.stringify(deriveAccountXpubs(seed)) },
      ],
      skipDuplicates: true,
    });
    rows = await db.serviceSetting.findMany({ where: { key: { in: [XPUBS_KEY, SEED_KEY] } } });
  }
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  const sealed = byKey.get(SEED_KEY)!;
  const openSeed = () => Uint8Array.from(Buffer.from(box.open(sealed, SEED_CONTEXT), "hex"));
  const xpubs = JSON.parse(byKey.get(XPUBS_KEY)!) as AccountXpubs;
  // Test-chain xpubs are derived when a test node first asks; they are public like the others.
  const otherChains = new Map<AddressChain, AccountXpubs>([["main", xpubs]]);
  return {
    xpubs,
    xpubsFor(chain) {
      let found = otherChains.get(chain);
      if (!found) {
        found = deriveAccountXpubs(openSeed(), { chain });
        otherChains.set(chain, found);
      }
      return found;
    },
    openSeed,
  };
}
