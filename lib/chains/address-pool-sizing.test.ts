import { describe, expect, it } from "vitest";
import { ADDRESS_POOL_MAX_TARGET, ADDRESS_POOL_TARGET, nextPoolTarget } from "./address-pool";

describe("the size an address pool is filled to", () => {
  it("starts at the base target", () => {
    expect(nextPoolTarget(undefined, 0)).toBe(ADDRESS_POOL_TARGET);
    expect(nextPoolTarget(undefined, 150)).toBe(ADDRESS_POOL_TARGET);
  });

  it("holds three runs' worth of what was taken since the last run", () => {
    expect(nextPoolTarget({ target: 1000, level: 1000 }, 600)).toBe(1200);
    // A quiet pool keeps the base target.
    expect(nextPoolTarget({ target: 200, level: 200 }, 199)).toBe(ADDRESS_POOL_TARGET);
  });

  it("at least doubles when the pool was found empty (invoices derived inline meanwhile), up to the maximum", () => {
    expect(nextPoolTarget({ target: 200, level: 200 }, 0)).toBe(600);
    expect(nextPoolTarget({ target: 1600, level: 100 }, 0)).toBe(3200);
    expect(nextPoolTarget({ target: 4000, level: 4000 }, 0)).toBe(ADDRESS_POOL_MAX_TARGET);
  });

  it("comes down by at most half per run when demand falls", () => {
    expect(nextPoolTarget({ target: 4000, level: 4000 }, 3990)).toBe(2000);
    expect(nextPoolTarget({ target: 300, level: 300 }, 300)).toBe(ADDRESS_POOL_TARGET);
  });

  it("reaches a size that a steady demand does not empty between runs", () => {
    let sizing = { target: ADDRESS_POOL_TARGET, level: 0 };
    let pooled = 0;
    const perRun = 1500;
    let emptyRuns = 0;
    for (let run = 0; run < 12; run++) {
      const target = nextPoolTarget(sizing, pooled);
      if (pooled < target / 2) pooled = target;
      sizing = { target, level: pooled };
      pooled = Math.max(0, pooled - perRun);
      if (pooled === 0 && run > 4) emptyRuns++;
    }
    expect(emptyRuns).toBe(0);
    expect(sizing.target).toBeLessThanOrEqual(ADDRESS_POOL_MAX_TARGET);
  });
});
