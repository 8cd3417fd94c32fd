import { describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { getSecretBox, refuseWalletSeedInThisProcess } from "./master-key";
import { canOpenWalletSeed, WALLET_SEED_CONTEXT, WalletSeedRefusedError } from "./secret-box";

// A file of its own: the declaration is process-wide and cannot be undone.
describe("a process declared web-only", () => {
  it("hands out only secret boxes that refuse the wallet seed, from the moment it is declared", () => {
    process.env.GATEWAY_MASTER_KEY = "5a".repeat(32);
    resetConfig();
    const before = getSecretBox();
    expect(canOpenWalletSeed(before)).toBe(true);
    const sealedSeed = before.seal("00ff", WALLET_SEED_CONTEXT);

    refuseWalletSeedInThisProcess();
    const after = getSecretBox();
    expect(canOpenWalletSeed(after)).toBe(false);
    expect(() => after.open(sealedSeed, WALLET_SEED_CONTEXT)).toThrow(WalletSeedRefusedError);
    expect(after.open(after.seal("other", "webhook:1"), "webhook:1")).toBe("other");
  });
});
