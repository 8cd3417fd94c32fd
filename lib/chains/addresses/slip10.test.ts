import { ed25519 } from "@noble/curves/ed25519";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils";
import { describe, expect, it } from "vitest";
import { deriveSlip10Ed25519, parseHardenedPath } from "@/lib/chains/addresses/slip10";

// SLIP-0010, test vector 1 for ed25519.
const SEED = hexToBytes("000102030405060708090a0b0c0d0e0f");

describe("deriveSlip10Ed25519", () => {
  it.each([
    ["m", "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7", "90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb", "a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed"],
    ["m/0'", "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3", "8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69", "8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c"],
    ["m/0'/1'", "b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2", "a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14", "1932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187"],
  ])("%s", (path, privateKey, chainCode, publicKey) => {
    const node = deriveSlip10Ed25519(SEED, path);
    expect(bytesToHex(node.privateKey)).toBe(privateKey);
    expect(bytesToHex(node.chainCode)).toBe(chainCode);
    expect(bytesToHex(ed25519.getPublicKey(node.privateKey))).toBe(publicKey);
  });
});

describe("parseHardenedPath", () => {
  it("reads hardened levels", () => {
    expect(parseHardenedPath("m/44'/501'/3'/0'")).toEqual([44, 501, 3, 0]);
  });

  it.each(["m/44'/501'/0", "44'/501'", "m/2147483648'", "m/x'"])("refuses %s", (path) => {
    expect(() => parseHardenedPath(path)).toThrow();
  });
});
