import { describe, expect, it } from "vitest";
import type { NetworkId } from "@/lib/catalogue";
import { getTestDb, getTestSecretBox } from "@/lib/testing/harness";
import { deriveDepositAddress } from "./addresses";
import { renderQrCode } from "./addresses/qr-code";
import { DEFAULT_ADDRESS_RESERVE, type ReadyAddress } from "./address-reserve";
import { topUpAddressPool } from "./address-pool";
import { allocateDepositAddresses, createAddressReserve } from "./allocate-address";
import { loadKeyMaterial } from "./key-material";

const db = getTestDb();

describe("addresses held ahead by busy processes", () => {
  it("come from the key tree's counter like every other take: two processes' reserves, pool top-ups and inline takes racing never share an index", async () => {
    const network: NetworkId = "polygon";
    const keys = await loadKeyMaterial(db, getTestSecretBox());
    // Each reserve sees 200 takes a second on its own clock, so it holds addresses from the first second on.
    const reserves = [0, 1].map(() => {
      const clock = { now: 0 };
      return { clock, reserve: createAddressReserve(db, keys, network, "main", { ...DEFAULT_ADDRESS_RESERVE, now: () => clock.now }) };
    });
    const fromReserves: ReadyAddress[] = [];
    let driving = 2;
    // Until each reserve has handed out 300 (its first refill waits for a derivation thread to start).
    const drive = async ({ clock, reserve }: (typeof reserves)[number]) => {
      const deadline = Date.now() + 30_000;
      for (let handedOut = 0; handedOut < 300 && Date.now() < deadline; ) {
        clock.now += 5;
        const ready = reserve.take();
        if (ready) {
          fromReserves.push(ready);
          handedOut++;
        }
        // Real time for the refill's derivation thread, while the reserve's own clock runs ahead.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      driving--;
    };
    const inline: number[] = [];
    const pooled: number[] = [];
    const takeAlongside = async () => {
      while (driving > 0) {
        inline.push(...(await allocateDepositAddresses(db, keys, network, 3)).map((taken) => taken.index));
        pooled.push(...(await topUpAddressPool(db, keys, network, "main", 10)));
      }
    };
    await Promise.all([drive(reserves[0]), drive(reserves[1]), takeAlongside(), takeAlongside()]);

    expect(fromReserves).toHaveLength(600);
    expect(inline.length).toBeGreaterThan(0);
    // Inline takes draw on the pool, so a pooled index may come back as an inline one; a held one never.
    const held = fromReserves.map((ready) => ready.index);
    expect(new Set(held).size).toBe(held.length);
    expect(new Set(inline).size).toBe(inline.length);
    expect(new Set(pooled).size).toBe(pooled.length);
    expect(held.filter((index) => inline.includes(index) || pooled.includes(index))).toEqual([]);
    const accountXpub = keys.xpubsFor("main")[network]!;
    for (const ready of fromReserves.filter((_, position) => position % 25 === 0)) {
      expect(ready.address).toBe(deriveDepositAddress({ network, accountXpub, index: ready.index }).address);
      expect(ready.qrCode).toBe(await renderQrCode(ready.address));
    }
  });
});
