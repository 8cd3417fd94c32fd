import { describe, expect, it } from "vitest";
import {
  canOpenWalletSeed,
  countWalletSeedUses,
  createSecretBox,
  isSealedUnderSeedKey,
  sealsSeedWithSeedKey,
  SeedKeyMissingError,
  WALLET_SEED_CONTEXT,
  WalletSeedRefusedError,
  withoutWalletSeed,
  withSeedKey,
} from "./secret-box";
import { createConfiguredSecretBox } from "./master-key";

const box = createSecretBox(Buffer.alloc(32, 7));

describe("a secret box without the wallet seed (web-only processes)", () => {
  it("opens and seals every other secret, and refuses the seed both ways, counting each refusal", () => {
    const seedless = withoutWalletSeed(box);
    const sealedSeed = box.seal("00ff", WALLET_SEED_CONTEXT);
    const sealedOther = box.seal("webhook secret", "webhook:1");
    const before = countWalletSeedUses();

    expect(seedless.open(sealedOther, "webhook:1")).toBe("webhook secret");
    expect(seedless.open(seedless.seal("api key", "api-key:2"), "api-key:2")).toBe("api key");
    expect(seedless.mac("recovery", "code")).toBe(box.mac("recovery", "code"));
    expect(() => seedless.open(sealedSeed, WALLET_SEED_CONTEXT)).toThrow(WalletSeedRefusedError);
    expect(() => seedless.seal("00ff", WALLET_SEED_CONTEXT)).toThrow(/GATEWAY_WORKER=off/);
    expect(countWalletSeedUses()).toEqual({ opened: before.opened, refused: before.refused + 2 });

    expect(box.open(sealedSeed, WALLET_SEED_CONTEXT)).toBe("00ff");
    expect(countWalletSeedUses()).toEqual({ opened: before.opened + 1, refused: before.refused + 2 });
  });

  it("is one box per box, and stays seedless when wrapped again", () => {
    const seedless = withoutWalletSeed(box);
    expect(withoutWalletSeed(box)).toBe(seedless);
    expect(withoutWalletSeed(seedless)).toBe(seedless);
    expect(canOpenWalletSeed(box)).toBe(true);
    expect(canOpenWalletSeed(seedless)).toBe(false);
  });
});

describe("a secret box with a seed key (GATEWAY_SEED_KEY)", () => {
  const masterBox = createSecretBox(Buffer.alloc(32, 7));
  const seedKey = Buffer.alloc(32, 9);

  it("seals the seed under the seed key, which the master key alone cannot open, and every other secret under the master key", () => {
    const signing = withSeedKey(masterBox, seedKey);
    const sealedSeed = signing.seal("00ff", WALLET_SEED_CONTEXT);
    expect(isSealedUnderSeedKey(sealedSeed)).toBe(true);
    expect(signing.open(sealedSeed, WALLET_SEED_CONTEXT)).toBe("00ff");
    expect(() => masterBox.open(sealedSeed, WALLET_SEED_CONTEXT)).toThrow(SeedKeyMissingError);
    // Other secrets stay the master key's: a web process opens them without the seed key.
    expect(masterBox.open(signing.seal("webhook secret", "webhook:1"), "webhook:1")).toBe("webhook secret");
    expect(signing.mac("recovery", "code")).toBe(masterBox.mac("recovery", "code"));
  });

  it("still opens a seed sealed under the master key, and refuses a wrong seed key by name", () => {
    const legacy = masterBox.seal("00ff", WALLET_SEED_CONTEXT);
    expect(isSealedUnderSeedKey(legacy)).toBe(false);
    expect(withSeedKey(masterBox, seedKey).open(legacy, WALLET_SEED_CONTEXT)).toBe("00ff");
    const sealedSeed = withSeedKey(masterBox, seedKey).seal("00ff", WALLET_SEED_CONTEXT);
    expect(() => withSeedKey(masterBox, Buffer.alloc(32, 8)).open(sealedSeed, WALLET_SEED_CONTEXT)).toThrow(/GATEWAY_SEED_KEY does not open the wallet seed/);
  });

  it("is told apart, and a web-only wrapper still refuses the seed", () => {
    const signing = withSeedKey(masterBox, seedKey);
    expect(sealsSeedWithSeedKey(signing)).toBe(true);
    expect(sealsSeedWithSeedKey(masterBox)).toBe(false);
    expect(() => withoutWalletSeed(signing).open(signing.seal("00ff", WALLET_SEED_CONTEXT), WALLET_SEED_CONTEXT)).toThrow(WalletSeedRefusedError);
  });
});

describe("the configured secret box", () => {
  it("refuses a seed key equal to the master key: whoever holds the master key would hold the seed", () => {
    const key = "3c".repeat(32);
    expect(() => createConfiguredSecretBox({ masterKey: key, dataDir: "/nonexistent", seedKey: key })).toThrow(/GATEWAY_SEED_KEY must differ from the master key/);
    expect(sealsSeedWithSeedKey(createConfiguredSecretBox({ masterKey: key, dataDir: "/nonexistent", seedKey: "4d".repeat(32) }))).toBe(true);
    expect(sealsSeedWithSeedKey(createConfiguredSecretBox({ masterKey: key, dataDir: "/nonexistent", seedKey: undefined }))).toBe(false);
  });
});
