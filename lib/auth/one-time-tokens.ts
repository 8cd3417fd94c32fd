import { createHash, randomBytes, randomInt } from "node:crypto";

/** A bearer token for a link or a cookie: 32 random bytes, base64url. */
export function newBearerToken(): string {
  return randomBytes(32).toString("base64url");
}

/** How tokens and recovery codes are stored: their SHA-256 (they carry enough entropy not to need a slow hash). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

// Crockford-style alphabet without look-alikes (no 0/o, 1/l/i): codes are read off paper.
const RECOVERY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
const RECOVERY_CODE_COUNT = 10;

/** Ten recovery codes like `k7m2p-x9qhr` (about 49 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
  });
}

/** A recovery code as typed (any case, spaces, with or without the dash) in its stored form; null when it cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.toLowerCase().replace(/[\s-]/g, "");
  if (compact.length !== 10 || [...compact].some((char) => !RECOVERY_ALPHABET.includes(char))) return null;
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}
