import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/**
 * Authenticated encryption of secrets at rest (API key secrets, webhook secrets, seeds)
 * with AES-256-GCM under the service master key. Format: `v1.<iv>.<tag>.<ciphertext>`,
 * each part base64url. The associated data binds a ciphertext to its purpose, so a
 * secret copied into another column does not decrypt there.
 */
export interface SecretBox {
  seal(plaintext: string, associatedData: string): string;
  open(sealed: string, associatedData: string): string;
  /**
   * HMAC-SHA256 of `message` (hex) under a key derived from the master key for `purpose`: what
   * stands for a secret at rest (a recovery code) is worthless to whoever reads the database
   * without the master key.
   */
  mac(purpose: string, message: string): string;
}

const VERSION = "v1";

export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error("The master key must be 32 bytes");
  const macKeys = new Map<string, Buffer>();
  return {
    mac(purpose, message) {
      let key = macKeys.get(purpose);
      if (!key) macKeys.set(purpose, (key = createHmac("sha256", masterKey).update(`gateway/mac/${purpose}`).digest()));
      return createHmac("sha256", key).update(message, "utf8").digest("hex");
    },
    seal(plaintext, associatedData) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", masterKey, iv, { authTagLength: 16 });
      cipher.setAAD(Buffer.from(associatedData, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
    },
    open(sealed, associatedData) {
      if (associatedData === WALLET_SEED_CONTEXT && isSealedUnderSeedKey(sealed)) throw new SeedKeyMissingError();
      const [version, iv, tag, ciphertext] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Not a sealed secret");
      const authTag = Buffer.from(tag, "base64url");
      if (authTag.length !== 16) throw new Error("Not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", masterKey, Buffer.from(iv, "base64url"), { authTagLength: 16 });
      decipher.setAAD(Buffer.from(associatedData, "utf8"));
      decipher.setAuthTag(authTag);
      if (associatedData === WALLET_SEED_CONTEXT) seedUses().opened++;
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

/** Parses a master key given as 64 hex characters or as base64/base64url of 32 bytes. */
export function parseMasterKey(text: string, variable = "GATEWAY_MASTER_KEY"): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error(`${variable} must be 32 bytes, written as 64 hex characters or base64`);
  return key;
}

/** The associated data the wallet seed is sealed under: the one secret only processes that sign may open. */
export const WALLET_SEED_CONTEXT = "service-setting:hd_seed";

/** Thrown when a process without the worker (GATEWAY_WORKER=off) reaches for the wallet seed. */
export class WalletSeedRefusedError extends Error {
  constructor() {
    super("This process runs without the worker (GATEWAY_WORKER=off) and holds no signing keys: the wallet seed is opened only where the worker runs");
    this.name = "WalletSeedRefusedError";
  }
}

/** Marks a seed sealed under the seed key (GATEWAY_SEED_KEY) rather than the master key. */
const SEED_KEY_MARK = "seedkey.";

export function isSealedUnderSeedKey(sealed: string): boolean {
  return sealed.startsWith(SEED_KEY_MARK);
}

/** Thrown when the seed is sealed under GATEWAY_SEED_KEY and this process was not given it. */
export class SeedKeyMissingError extends Error {
  constructor() {
    super("The wallet seed is sealed under GATEWAY_SEED_KEY, which this process was not given: set it where the worker runs");
    this.name = "SeedKeyMissingError";
  }
}

const seedKeyBoxes = new WeakSet<SecretBox>();

/**
 * The same box, except that it seals the wallet seed under a key of its own (GATEWAY_SEED_KEY),
 * given only to processes that sign: a web process holds the master key for every other secret
 * but, not holding this one, cannot open the seed even when compromised. A seed still sealed under
 * the master key (written before the seed key was set) opens as before, to be resealed.
 */
export function withSeedKey(box: SecretBox, seedKey: Buffer): SecretBox {
  const seedBox = createSecretBox(seedKey);
  const withKey: SecretBox = {
    mac: (purpose, message) => box.mac(purpose, message),
    seal(plaintext, associatedData) {
      if (associatedData !== WALLET_SEED_CONTEXT) return box.seal(plaintext, associatedData);
      return SEED_KEY_MARK + seedBox.seal(plaintext, associatedData);
    },
    open(sealed, associatedData) {
      if (associatedData !== WALLET_SEED_CONTEXT || !isSealedUnderSeedKey(sealed)) return box.open(sealed, associatedData);
      try {
        return seedBox.open(sealed.slice(SEED_KEY_MARK.length), associatedData);
      } catch {
        throw new Error("GATEWAY_SEED_KEY does not open the wallet seed: set it to the key the seed was sealed with");
      }
    },
  };
  seedKeyBoxes.add(withKey);
  return withKey;
}

/** True for a box made by withSeedKey: the seed it seals needs the seed key to open. */
export function sealsSeedWithSeedKey(box: SecretBox): boolean {
  return seedKeyBoxes.has(box);
}

const globalForSeed = globalThis as unknown as { gatewayWalletSeedUses?: { opened: number; refused: number } };

function seedUses(): { opened: number; refused: number } {
  // On globalThis: the bundled route code has module copies of its own, and counts into the same place.
  globalForSeed.gatewayWalletSeedUses ??= { opened: 0, refused: 0 };
  return globalForSeed.gatewayWalletSeedUses;
}

/** How often this process opened the wallet seed, and how often a box without it refused to. */
export function countWalletSeedUses(): { opened: number; refused: number } {
  return { ...seedUses() };
}

const seedlessBoxes = new WeakSet<SecretBox>();
const seedlessOf = new WeakMap<SecretBox, SecretBox>();

/**
 * The same box, except that it will neither open nor seal the wallet seed: what a web-only
 * process gets, so that no code path there — a forgotten caller, a new feature — can reach the
 * signing keys. It fails loudly instead (WalletSeedRefusedError). One per box, so callers that
 * cache by box identity see one box.
 */
export function withoutWalletSeed(box: SecretBox): SecretBox {
  if (seedlessBoxes.has(box)) return box;
  let seedless = seedlessOf.get(box);
  if (!seedless) {
    const refuseSeed = (associatedData: string) => {
      if (associatedData !== WALLET_SEED_CONTEXT) return;
      seedUses().refused++;
      throw new WalletSeedRefusedError();
    };
    seedless = {
      mac: (purpose, message) => box.mac(purpose, message),
      seal(plaintext, associatedData) {
        refuseSeed(associatedData);
        return box.seal(plaintext, associatedData);
      },
      open(sealed, associatedData) {
        refuseSeed(associatedData);
        return box.open(sealed, associatedData);
      },
    };
    seedlessBoxes.add(seedless);
    seedlessOf.set(box, seedless);
  }
  return seedless;
}

/** False for a box made by withoutWalletSeed. */
export function canOpenWalletSeed(box: SecretBox): boolean {
  return !seedlessBoxes.has(box);
}
