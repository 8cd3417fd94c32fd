import { describe, expect, it } from "vitest";
import { decideBatchItem } from "./transition";

describe("decideBatchItem", () => {
  it.each([
    ["started", ["pending"], "processing"],
    ["succeeded", ["pending", "processing"], "done"],
    ["failed", ["pending", "processing"], "error"],
    ["skipped", ["pending", "processing"], "error"],
  ] as const)("%s moves %j to %s", (fact, from, to) => {
    expect(decideBatchItem(fact)).toEqual({ from, to });
  });

  it("never moves a finished element", () => {
    for (const fact of ["started", "succeeded", "failed", "skipped"] as const) {
      expect(decideBatchItem(fact).from).not.toContain("done");
      expect(decideBatchItem(fact).from).not.toContain("error");
    }
  });
});
