import { describe, expect, test } from "vitest";
import { createNonceManager } from "@/lib/chains/evm/nonce-manager";

const ACCOUNT = "31337:0xAbC0000000000000000000000000000000000001";

describe("createNonceManager", () => {
  test("uses the node's pending count, or one past the last used when the node lags", async () => {
    const manager = createNonceManager();
    const take = (pending: number) => manager.withNextNonce(ACCOUNT, async () => pending, async (nonce) => nonce);
    expect(await take(5)).toBe(5);
    expect(await take(5)).toBe(6); // the node has not counted nonce 5 yet
    expect(await take(6)).toBe(7);
    expect(await take(12)).toBe(12); // the key was used elsewhere
    expect(await manager.withNextNonce(ACCOUNT.toLowerCase(), async () => 0, async (nonce) => nonce)).toBe(13);
  });

  test("a failed use frees its nonce", async () => {
    const manager = createNonceManager();
    await expect(manager.withNextNonce(ACCOUNT, async () => 3, async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(await manager.withNextNonce(ACCOUNT, async () => 3, async (nonce) => nonce)).toBe(3);
  });

  test("concurrent uses of one account run one at a time with consecutive nonces", async () => {
    const manager = createNonceManager();
    let running = 0;
    let mostRunning = 0;
    const nonces = await Promise.all(
      Array.from({ length: 10 }, () =>
        // The node never sees the broadcasts: only the manager's memory keeps the nonces apart.
        manager.withNextNonce(ACCOUNT, async () => 40, async (nonce) => {
          running++;
          mostRunning = Math.max(mostRunning, running);
          await new Promise((resolve) => setTimeout(resolve, 2));
          running--;
          return nonce;
        }),
      ),
    );
    expect(nonces).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
    expect(mostRunning).toBe(1);
  });

  test("accounts do not wait for each other, and each chain has its own nonces", async () => {
    const manager = createNonceManager();
    let releaseFirst!: () => void;
    const first = manager.withNextNonce("1:0xaa", async () => 0, () => new Promise<number>((resolve) => (releaseFirst = () => resolve(0))));
    expect(await manager.withNextNonce("56:0xaa", async () => 0, async (nonce) => nonce)).toBe(0);
    releaseFirst();
    expect(await first).toBe(0);
  });
});
