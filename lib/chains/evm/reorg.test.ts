import { describe, expect, test } from "vitest";
import { ChainError } from "@/lib/chains/types";
import { compareKnownBlocks, findReorgDepth, type KnownBlock } from "@/lib/chains/evm/reorg";

const hash = (label: string) => `0x${label.repeat(64 / label.length)}`;

describe("compareKnownBlocks", () => {
  const known: KnownBlock[] = [
    { height: 10, hash: hash("a") },
    { height: 11, hash: hash("b") },
    { height: 12, hash: hash("c") },
  ];
  const cases: [string, KnownBlock[], [number, string | null][], { fromHeight: number; heights: number[] } | null][] = [
    ["all still on the chain", known, [[10, hash("a")], [11, hash("b")], [12, hash("c")]], null],
    ["hashes compared without case", known, [[10, hash("A")], [11, hash("B")], [12, hash("C")]], null],
    ["the newest block replaced", known, [[10, hash("a")], [11, hash("b")], [12, hash("d")]], { fromHeight: 12, heights: [12] }],
    ["two blocks replaced", known, [[10, hash("a")], [11, hash("e")], [12, hash("d")]], { fromHeight: 11, heights: [11, 12] }],
    ["the chain is shorter than the records", known, [[10, hash("a")], [11, null], [12, null]], { fromHeight: 11, heights: [11, 12] }],
    // A record from before an earlier reorganisation: the newer match does not vouch for it.
    ["an old record on a dead fork below a match", known, [[10, hash("f")], [11, hash("b")], [12, hash("c")]], { fromHeight: 10, heights: [10] }],
    ["records given out of order", [...known].reverse(), [[10, hash("a")], [11, hash("e")], [12, hash("d")]], { fromHeight: 11, heights: [11, 12] }],
    ["nothing recorded", [], [], null],
  ];

  test.each(cases)("%s", (_name, records, chain, expected) => {
    const finding = compareKnownBlocks(records, new Map(chain));
    if (expected === null) expect(finding).toBeNull();
    else {
      expect(finding?.fromHeight).toBe(expected.fromHeight);
      expect(finding?.orphaned.map((block) => block.height)).toEqual(expected.heights);
    }
  });
});

describe("findReorgDepth", () => {
  test("asks the chain once per recorded height", async () => {
    const asked: number[] = [];
    const chain = new Map([[5, hash("1")], [6, hash("2")]]);
    const adapter = {
      async getBlockHash(height: number) {
        asked.push(height);
        return chain.get(height) ?? null;
      },
    };
    const finding = await findReorgDepth(adapter, [
      { height: 5, hash: hash("1") },
      { height: 6, hash: hash("9") },
      { height: 6, hash: hash("2") },
      { height: 7, hash: hash("3") },
    ]);
    expect(asked.sort()).toEqual([5, 6, 7]);
    expect(finding).toEqual({ fromHeight: 6, orphaned: [{ height: 6, hash: hash("9") }, { height: 7, hash: hash("3") }] });
  });

  test("a chain failure propagates instead of a partial answer", async () => {
    const adapter = {
      async getBlockHash(height: number): Promise<string | null> {
        if (height === 9) throw new ChainError("timeout", { retryable: true });
        return hash("1");
      },
    };
    await expect(findReorgDepth(adapter, [{ height: 8, hash: hash("1") }, { height: 9, hash: hash("2") }])).rejects.toMatchObject({ retryable: true });
  });
});
