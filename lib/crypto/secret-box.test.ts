import { describe, expect, it } from "vitest";
import { canOpenWalletSeed, countWalletSeedUses, createSecretBox, WALLET_SEED_CONTEXT, WalletSeedRefusedError, withoutWalletSeed } from "./secret-box";

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
