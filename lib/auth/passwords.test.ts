import { randomBytes, scrypt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "./passwords";
import { isLegacyRecoveryCode, newRecoveryCodes, normalizeRecoveryCode } from "./one-time-tokens";

/** A hash as an earlier version made it: scrypt N=2^15, r=8, p=1. */
function legacyHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (error, hash) =>
      error ? reject(error) : resolve(["scrypt", 32768, 8, 1, salt.toString("base64url"), hash.toString("base64url")].join("$")),
    ),
  );
}

describe("password hashes", () => {
  it("are scrypt at current guidance; weaker ones still verify and are marked for rehashing", async () => {
    const current = await hashPassword("correct horse battery staple");
    expect(current).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(needsRehash(current)).toBe(false);
    expect(await verifyPassword("correct horse battery staple", current)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", current)).toBe(false);
    const old = await legacyHash("an older password");
    expect(await verifyPassword("an older password", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });
});

describe("recovery codes", () => {
  it("carry about 99 bits each (20 characters of 31), written in groups of five", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[2-9a-hjkmnp-z]{5}(-[2-9a-hjkmnp-z]{5}){3}$/);
    expect(20 * Math.log2(31)).toBeGreaterThan(80);
    expect(new Set(codes).size).toBe(10);
  });

  it("are read as typed, and the short codes made before are still recognised as such", () => {
    const [code] = newRecoveryCodes();
    expect(normalizeRecoveryCode(` ${code.toUpperCase().replaceAll("-", " ")} `)).toBe(code);
    expect(isLegacyRecoveryCode(code)).toBe(false);
    expect(normalizeRecoveryCode("K7M2P X9QHR")).toBe("k7m2p-x9qhr");
    expect(isLegacyRecoveryCode("k7m2p-x9qhr")).toBe(true);
    expect(normalizeRecoveryCode("k7m2p-x9qh")).toBeNull();
    expect(normalizeRecoveryCode("k7m2p-x9qh0")).toBeNull(); // 0 is not in the alphabet
  });
});
