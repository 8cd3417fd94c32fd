import { describe, expect, it } from "vitest";
import { createCoalescer, createKeyedCoalescer, onePerOwner } from "./coalesce";

/** A batch runner that records each batch and answers when released. */
function recordingRunner() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  return {
    batches,
    releaseNext: () => releases.shift()!(),
    runBatch: (items: number[]) =>
      new Promise<string[]>((resolve) => {
        batches.push(items);
        releases.push(() => resolve(items.map((item) => `done ${item}`)));
      }),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("createCoalescer", () => {
  it("sends a lone call at once, then the calls that arrived meanwhile as one batch", async () => {
    const runner = recordingRunner();
    const run = createCoalescer({ maxBatch: 10, runBatch: runner.runBatch });
    const first = run(1);
    await tick();
    expect(runner.batches).toEqual([[1]]);
    const later = [run(2), run(3), run(4)];
    await tick();
    expect(runner.batches).toEqual([[1]]);
    runner.releaseNext();
    expect(await first).toBe("done 1");
    await tick();
    expect(runner.batches).toEqual([[1], [2, 3, 4]]);
    runner.releaseNext();
    expect(await Promise.all(later)).toEqual(["done 2", "done 3", "done 4"]);
  });

  it("splits what waits into batches of at most maxBatch, in the order of the calls", async () => {
    const runner = recordingRunner();
    const run = createCoalescer({ maxBatch: 2, runBatch: runner.runBatch });
    const answers = [1, 2, 3, 4, 5].map((item) => run(item));
    for (let released = 0; released < 3; released++) {
      await tick();
      runner.releaseNext();
    }
    expect(await Promise.all(answers)).toEqual(["done 1", "done 2", "done 3", "done 4", "done 5"]);
    expect(runner.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it("gives each caller its own outcome when a batch fails: the failing item alone fails", async () => {
    const batches: number[][] = [];
    const run = createCoalescer<number, number>({
      maxBatch: 10,
      runBatch: async (items) => {
        batches.push(items);
        if (items.includes(13)) throw new Error("the batch failed");
        return items.map((item) => item * 2);
      },
      runAlone: async (item) => {
        if (item === 13) throw new Error(`item ${item} is refused`);
        return item * 2;
      },
    });
    const blocker = run(0);
    const outcomes = await Promise.allSettled([run(12), run(13), run(14)]);
    await blocker;
    expect(batches).toEqual([[0], [12, 13, 14]]);
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : (outcome.reason as Error).message))).toEqual([24, "item 13 is refused", 28]);
  });

  it("rejects every caller of a failed batch when there is no way to run items alone, and keeps serving", async () => {
    let isBroken = true;
    const run = createCoalescer<number, number>({
      maxBatch: 10,
      runBatch: async (items) => {
        if (isBroken) throw new Error("database down");
        return items;
      },
    });
    const outcomes = await Promise.allSettled([run(1), run(2)]);
    expect(outcomes.every((outcome) => outcome.status === "rejected")).toBe(true);
    isBroken = false;
    expect(await run(3)).toBe(3);
  });

  it("refuses a batch that answers a different number of outputs", async () => {
    const run = createCoalescer<number, number>({ maxBatch: 10, runBatch: async () => [] });
    await expect(run(1)).rejects.toThrow(/0 outputs for 1 items/);
  });
});

describe("createKeyedCoalescer", () => {
  it("batches items of one key together and never mixes keys", async () => {
    const batches: string[][] = [];
    const run = createKeyedCoalescer(
      (item: string) => item.split(":")[0],
      () => ({
        maxBatch: 10,
        runBatch: async (items: string[]) => {
          batches.push(items);
          await tick();
          return items.map((item) => item.toUpperCase());
        },
      }),
    );
    const answers = await Promise.all(["a:1", "b:1", "a:2", "a:3", "b:2"].map((item) => run(item)));
    expect(answers).toEqual(["A:1", "B:1", "A:2", "A:3", "B:2"]);
    expect(batches).toEqual([["a:1"], ["b:1"], ["a:2", "a:3"], ["b:2"]]);
  });
});

describe("onePerOwner", () => {
  it("makes one per owner, on first use, and hands the same back after", () => {
    const made: object[] = [];
    const counterOf = onePerOwner((owner: object) => {
      made.push(owner);
      return { owner, calls: 0 };
    });
    const first = {};
    const second = {};
    expect(made).toEqual([]);
    counterOf(first).calls++;
    counterOf(first).calls++;
    counterOf(second).calls++;
    expect(made).toEqual([first, second]);
    expect(counterOf(first)).toEqual({ owner: first, calls: 2 });
    expect(counterOf(second)).toEqual({ owner: second, calls: 1 });
    expect(made).toHaveLength(2);
  });
});
