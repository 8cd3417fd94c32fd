import { describe, expect, it } from "vitest";
import { AddressReserve, DEFAULT_ADDRESS_RESERVE, type AddressReserveOptions, type ReadyAddress } from "./address-reserve";

/** A key tree's counter and a derivation that names each index, with a clock the test moves. */
function makeSource(options: { failReserves?: number; failDerivations?: number } = {}) {
  let counter = 0;
  let failuresLeft = options.failReserves ?? 0;
  let derivationFailuresLeft = options.failDerivations ?? 0;
  let derivations = 0;
  const reserveCalls: number[] = [];
  return {
    reserveCalls,
    clock: { now: 0 },
    source: {
      async reserveIndexes(count: number) {
        reserveCalls.push(count);
        if (failuresLeft > 0) {
          failuresLeft--;
          throw new Error("database unavailable");
        }
        const first = counter;
        counter += count;
        return Array.from({ length: count }, (_, offset) => first + offset);
      },
      async derive(indexes: number[]): Promise<ReadyAddress[]> {
        // The second slice of a refill fails while failures are left.
        if (derivations++ % 2 === 1 && derivationFailuresLeft > 0) {
          derivationFailuresLeft--;
          throw new Error("derivation thread gone");
        }
        return indexes.map((index) => ({ index, address: `address-${index}`, qrCode: `qr-${index}` }));
      },
    },
  };
}

function reserveWith(made: ReturnType<typeof makeSource>, options: Partial<AddressReserveOptions> = {}) {
  return new AddressReserve(made.source, { ...DEFAULT_ADDRESS_RESERVE, now: () => made.clock.now, ...options });
}

/** `count` takes spread evenly over `seconds` of the test's clock; answers what they got. */
async function takeAtRate(reserve: AddressReserve, clock: { now: number }, count: number, seconds: number) {
  const taken: (ReadyAddress | undefined)[] = [];
  for (let take = 0; take < count; take++) {
    clock.now += (seconds * 1000) / count;
    taken.push(reserve.take());
    await new Promise((resolve) => setImmediate(resolve));
  }
  return taken;
}

describe("the address reserve", () => {
  it("holds nothing while takes are fewer than its threshold: lone invoices go to the shared pool", async () => {
    const made = makeSource();
    const reserve = reserveWith(made, { minTakesPerSecond: 50 });
    const taken = await takeAtRate(reserve, made.clock, 120, 3);
    expect(taken.every((address) => address === undefined)).toBe(true);
    expect(made.reserveCalls).toEqual([]);
  });

  it("holds half a second of takes once they are frequent, refills at half, and hands each index out once", async () => {
    const made = makeSource();
    const reserve = reserveWith(made, { minTakesPerSecond: 50, holdSeconds: 0.5, maxHeld: 1000 });
    await takeAtRate(reserve, made.clock, 400, 1);
    // 400 takes per second: 200 held, refilled by 100 or more each time it falls under 100.
    expect(made.reserveCalls[0]).toBe(200);
    const taken = (await takeAtRate(reserve, made.clock, 2000, 5)).filter((address) => address !== undefined);
    expect(taken.length).toBeGreaterThan(1900);
    expect(new Set(taken.map((address) => address.index)).size).toBe(taken.length);
    expect(taken.every((address) => address.address === `address-${address.index}` && address.qrCode === `qr-${address.index}`)).toBe(true);
    expect(made.reserveCalls.slice(1).every((count) => count >= 100 && count <= 200)).toBe(true);
    expect(reserve.heldCount).toBeLessThanOrEqual(200);
  });

  it("never holds more than its limit, however fast the takes", async () => {
    const made = makeSource();
    const reserve = reserveWith(made, { maxHeld: 300 });
    await takeAtRate(reserve, made.clock, 5000, 1);
    await takeAtRate(reserve, made.clock, 5000, 1);
    expect(Math.max(...made.reserveCalls)).toBeLessThanOrEqual(300);
    expect(reserve.heldCount).toBeLessThanOrEqual(300);
  });

  it("after a failed refill, waits before the next and meanwhile leaves takes to the pool", async () => {
    const made = makeSource({ failReserves: 1 });
    const reserve = reserveWith(made, { retryAfterMs: 1000 });
    await takeAtRate(reserve, made.clock, 400, 1);
    expect(made.reserveCalls).toEqual([200]);
    const meanwhile = await takeAtRate(reserve, made.clock, 100, 0.5);
    expect(made.reserveCalls).toEqual([200]);
    expect(meanwhile.every((address) => address === undefined)).toBe(true);
    const later = await takeAtRate(reserve, made.clock, 400, 1);
    expect(made.reserveCalls.length).toBeGreaterThan(1);
    expect(later.some((address) => address !== undefined)).toBe(true);
  });

  it("keeps what a refill derived before it failed, skips the rest of its indexes, and refills again later", async () => {
    const made = makeSource({ failDerivations: 1 });
    const reserve = reserveWith(made, { deriveSlice: 50, retryAfterMs: 1000 });
    await takeAtRate(reserve, made.clock, 400, 1);
    // 200 indexes reserved; the first slice of 50 derived, the second failed.
    expect(made.reserveCalls).toEqual([200]);
    expect(reserve.heldCount).toBe(50);
    const meanwhile = (await takeAtRate(reserve, made.clock, 100, 0.5)).filter((address) => address !== undefined);
    expect(meanwhile.map((address) => address.index)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    const later = (await takeAtRate(reserve, made.clock, 400, 1)).filter((address) => address !== undefined);
    expect(made.reserveCalls.length).toBeGreaterThan(1);
    // The failed refill's other indexes (50 to 199) are never handed out.
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((address) => address.index >= 200)).toBe(true);
  });
});
