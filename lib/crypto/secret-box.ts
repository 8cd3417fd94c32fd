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
      const [version, iv, tag, ciphertext] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Not a sealed secret");
      const authTag = Buffer.from(tag, "base64url");
      if (authTag.length !== 16) throw new Error("Not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", masterKey, Buffer.from(iv, "base64url"), { authTagLength: 16 });
      decipher.setAAD(Buffer.from(associatedData, "utf8"));
      decipher.setAuthTag(authTag);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

/** Parses a master key given as 64 hex characters or as base64/base64url of 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error("GATEWAY_MASTER_KEY must be 32 bytes, written as 64 hex characters or base64");
  return key;
}
