import { createHash, randomBytes, randomInt } from "node:crypto";

/** A bearer token for a link or a cookie: 32 random bytes, base64url. */
export function newBearerToken(): string {
  return randomBytes(32).toString("base64url");
}

/** How tokens are stored: their SHA-256 (they carry enough entropy not to need a slow hash). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

// Crockford-style alphabet without look-alikes (no 0/o, 1/l/i): codes are read off paper.
const RECOVERY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
const RECOVERY_CODE_COUNT = 10;
/** 20 characters of 31: about 99 bits. Codes of 10 (about 49 bits) made before are still taken until replaced. */
const RECOVERY_CODE_LENGTH = 20;
const LEGACY_RECOVERY_CODE_LENGTH = 10;

/** Ten recovery codes like `k7m2p-x9qhr-3mfta-w8e2n` (about 99 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    grouped(Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("")),
  );
}

/** A recovery code as typed (any case, spaces, with or without dashes) in its written form; null when it cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.toLowerCase().replace(/[\s-]/g, "");
  if (compact.length !== RECOVERY_CODE_LENGTH && compact.length !== LEGACY_RECOVERY_CODE_LENGTH) return null;
  if ([...compact].some((char) => !RECOVERY_ALPHABET.includes(char))) return null;
  return grouped(compact);
}

function grouped(compact: string): string {
  return compact.match(/.{1,5}/g)!.join("-");
}

/** Whether a written recovery code is of the short kind made before, stored as its plain SHA-256. */
export function isLegacyRecoveryCode(code: string): boolean {
  return code.replaceAll("-", "").length === LEGACY_RECOVERY_CODE_LENGTH;
}
