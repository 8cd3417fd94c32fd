import type { Db } from "@/lib/db/client";
import { canOpenWalletSeed, isSealedUnderSeedKey, sealsSeedWithSeedKey, WALLET_SEED_CONTEXT, type SecretBox } from "@/lib/crypto/secret-box";
import { log } from "@/lib/log";
import { listNetworks, type NetworkId } from "@/lib/catalogue";
import { ADDRESS_CHAINS, createRandomMasterSeed, deriveAccountXpubs, deriveEd25519DepositAddress, type AccountXpubs, type AddressChain } from "./addresses";
import { ED25519_FAMILIES, XPUB_FAMILIES } from "./addresses/derivation-paths";
import { HOT_WALLET_INDEX } from "./signing-keys";
import { AppError } from "@/lib/errors/app-error";

const XPUBS_KEY = "hd_account_xpubs";
const SEED_KEY = "hd_seed";
const PUBLIC_KEYS_KEY = "hd_public_keys";

/**
 * What a process without the seed needs to know about the keys, recorded in the clear when the
 * keys are made (or, for keys made before it was recorded, by the first process with the seed
 * that loads them): the account xpubs of the test and regtest address formats, and the hot
 * wallet address of every ed25519 network on every chain (those cannot be derived from an xpub).
 */
interface PublicKeys {
  xpubs: Partial<Record<AddressChain, AccountXpubs>>;
  /** By `network:chain`. */
  hotWallets: Record<string, string>;
}

/**
 * The service's deposit-address key material. UTXO, EVM and Tron addresses derive from
 * account extended public keys, stored in the clear: the request path needs nothing secret.
 * Solana and TON (ed25519) cannot derive publicly: their deposit addresses come from the pools the
 * worker fills (address-pool.ts), their hot wallet addresses from the public record above.
 * The seed is kept sealed under the master key, or under GATEWAY_SEED_KEY where one is set (which
 * web processes are not given), and opened only by `openSeed`, which a web-only process
 * (GATEWAY_WORKER=off) refuses (WalletSeedRefusedError).
 */
export interface KeyMaterial {
  /** Mainnet account xpubs. */
  xpubs: AccountXpubs;
  /** Account xpubs for the address formats of a chain (test and regtest nodes use coin type 1). */
  xpubsFor(chain: AddressChain): AccountXpubs;
  /** The hot wallet address of an ed25519 network as recorded with the keys; undefined for other families. */
  recordedHotWalletAddress(network: NetworkId, chain: AddressChain): string | undefined;
  /** Whether this process may open the seed: false where the worker does not run. */
  canOpenSeed: boolean;
  openSeed(): Uint8Array;
}

const globalForKeys = globalThis as unknown as { gatewayKeyMaterial?: WeakMap<SecretBox, Promise<KeyMaterial>> };

/**
 * Loads the key material, creating it on first use (race-safe: the first writer wins) in a process
 * that may hold the seed. Cached per secret box: it never changes. Concurrent first callers share
 * one load, so a burst at start does not make and derive a seed per request. Never inside a
 * transaction: a seed created there and cached would outlive a rollback.
 */
export function loadKeyMaterial(db: Db, box: SecretBox): Promise<KeyMaterial> {
  const cache = (globalForKeys.gatewayKeyMaterial ??= new WeakMap());
  const cached = cache.get(box);
  if (cached) return cached;
  const keys = readOrCreateKeyMaterial(db, box);
  cache.set(box, keys);
  // A failed load is not kept: the next caller tries again.
  keys.catch(() => {
    if (cache.get(box) === keys) cache.delete(box);
  });
  return keys;
}

async function readOrCreateKeyMaterial(db: Db, box: SecretBox): Promise<KeyMaterial> {
  const canOpenSeed = canOpenWalletSeed(box);
  const keyNames = [XPUBS_KEY, SEED_KEY, PUBLIC_KEYS_KEY];
  let rows = await db.serviceSetting.findMany({ where: { key: { in: keyNames } } });
  if (!rows.some((row) => row.key === SEED_KEY)) {
    // Making the seed is signing work too: a web-only process waits for one with the worker.
    // A passing state, answered as one (503, retry): the worker makes them as it starts.
    if (!canOpenSeed) throw new AppError("request.busy", "No wallet keys yet: a process with the worker (npm run worker, or npm start) creates them when it starts; retry shortly.");
    const { seed } = createRandomMasterSeed();
    const sealedSeed = box.seal(Buffer.from(seed).toString("hex"), WALLET_SEED_CONTEXT);
    // All rows in one statement, so no reader ever sees xpubs without their seed.
    await db.serviceSetting.createMany({
      data: [
        { key: SEED_KEY, value: sealedSeed },
        { key: XPUBS_KEY, value: JSON.stringify(deriveAccountXpubs(seed)) },
        { key: PUBLIC_KEYS_KEY, value: JSON.stringify(derivePublicKeys(seed)) },
      ],
      skipDuplicates: true,
    });
    rows = await db.serviceSetting.findMany({ where: { key: { in: keyNames } } });
  }
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  let sealed = byKey.get(SEED_KEY)!;
  if (canOpenSeed && sealsSeedWithSeedKey(box) && !isSealedUnderSeedKey(sealed)) sealed = await resealUnderSeedKey(db, box, sealed);
  // A web-only process's box refuses (WalletSeedRefusedError): the refusal is the box's, so no other path to the seed exists there either.
  const openSeed = () => Uint8Array.from(Buffer.from(box.open(sealed, WALLET_SEED_CONTEXT), "hex"));
  const xpubs = JSON.parse(byKey.get(XPUBS_KEY)!) as AccountXpubs;
  let publicKeys = byKey.has(PUBLIC_KEYS_KEY) ? (JSON.parse(byKey.get(PUBLIC_KEYS_KEY)!) as PublicKeys) : undefined;
  if (canOpenSeed && (!publicKeys || !isComplete(publicKeys))) {
    // Keys made before the public record existed, or a network added since: recorded now, for the web processes.
    publicKeys = derivePublicKeys(openSeed());
    const value = JSON.stringify(publicKeys);
    await db.serviceSetting.upsert({ where: { key: PUBLIC_KEYS_KEY }, create: { key: PUBLIC_KEYS_KEY, value }, update: { value } });
  }
  const recorded = publicKeys ?? { xpubs: {}, hotWallets: {} };
  return {
    xpubs,
    xpubsFor(chain) {
      if (chain === "main") return xpubs;
      const found = recorded.xpubs[chain];
      if (!found) throw new Error(`The ${chain} account keys are not recorded yet: a process with the worker records them when it starts`);
      return found;
    },
    recordedHotWalletAddress(network, chain) {
      return recorded.hotWallets[`${network}:${chain}`];
    },
    canOpenSeed,
    openSeed,
  };
}

/**
 * Moves a seed sealed under the master key (made before GATEWAY_SEED_KEY was set) under the seed
 * key. Compare-and-set on the old value: of workers starting together one reseals, the others read
 * its result. The seed itself is unchanged, so every address and key stays the same.
 */
async function resealUnderSeedKey(db: Db, box: SecretBox, sealedUnderMasterKey: string): Promise<string> {
  const resealed = box.seal(box.open(sealedUnderMasterKey, WALLET_SEED_CONTEXT), WALLET_SEED_CONTEXT);
  const { count } = await db.serviceSetting.updateMany({ where: { key: SEED_KEY, value: sealedUnderMasterKey }, data: { value: resealed } });
  if (count === 1) log.info("wallet seed resealed under GATEWAY_SEED_KEY: processes without it can no longer open it");
  return (await db.serviceSetting.findUniqueOrThrow({ where: { key: SEED_KEY } })).value;
}

/** The public record of a seed (see PublicKeys). */
function derivePublicKeys(seed: Uint8Array): PublicKeys {
  const publicKeys: PublicKeys = { xpubs: {}, hotWallets: {} };
  for (const chain of ADDRESS_CHAINS) {
    if (chain !== "main") publicKeys.xpubs[chain] = deriveAccountXpubs(seed, { chain });
    for (const network of listNetworks()) {
      if (!ED25519_FAMILIES.has(network.family)) continue;
      const id = network.id as NetworkId;
      publicKeys.hotWallets[`${id}:${chain}`] = deriveEd25519DepositAddress({ network: id, seed, index: HOT_WALLET_INDEX, chain }).address;
    }
  }
  return publicKeys;
}

/** Whether a record covers every network of the catalogue on every chain. */
function isComplete(publicKeys: PublicKeys): boolean {
  return listNetworks().every((network) =>
    ADDRESS_CHAINS.every((chain) => {
      if (ED25519_FAMILIES.has(network.family)) return publicKeys.hotWallets[`${network.id}:${chain}`] !== undefined;
      if (chain === "main" || !XPUB_FAMILIES.has(network.family)) return true;
      return publicKeys.xpubs[chain]?.[network.id as NetworkId] !== undefined;
    }),
  );
}
