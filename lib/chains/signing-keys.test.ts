import { describe, expect, it } from "vitest";
import { deriveMasterSeed, deriveAccountXpub, deriveDepositAddress, deriveEd25519DepositAddress } from "./addresses";
import { deriveSigningKey, HOT_WALLET_INDEX } from "./signing-keys";

const seed = deriveMasterSeed("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about");

describe("signing keys", () => {
  it.each(["ethereum", "tron", "bitcoin", "litecoin"] as const)("the %s key at an index signs for the deposit address of that index", (network) => {
    const key = deriveSigningKey(seed, network, 7);
    expect(key.address).toBe(deriveDepositAddress({ network, accountXpub: deriveAccountXpub(seed, network), index: 7 }).address);
    expect(key.privateKey).toHaveLength(32);
  });

  it("matches the published vector at index 0 (EVM)", () => {
    expect(deriveSigningKey(seed, "ethereum", 0).address).toBe("0x9858EfFD232B4033E47d90003D41EC34EcaEda94");
  });

  it.each(["solana", "ton"] as const)("derives %s ed25519 keys for deposit addresses", (network) => {
    const key = deriveSigningKey(seed, network, 3);
    expect(key.address).toBe(deriveEd25519DepositAddress({ network, seed, index: 3 }).address);
    expect(key.publicKey).toHaveLength(32);
  });

  it("keeps the hot wallet apart from every deposit address", () => {
    const hot = deriveSigningKey(seed, "ethereum", HOT_WALLET_INDEX);
    expect(hot.address).not.toBe(deriveSigningKey(seed, "ethereum", 0).address);
    expect(hot.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});
