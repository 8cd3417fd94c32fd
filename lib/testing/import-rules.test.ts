import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { areaOf, checkImports, findCycles, findTransactionOpeners, readImportEdges, type ImportEdge } from "./import-rules";

const repository = path.resolve(import.meta.dirname, "../..");
const edges = readImportEdges(repository);

describe("the repository's imports", () => {
  it("point only down the layer map, never into test code, and form no cycle of files or of service folders", () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(checkImports(edges)).toEqual({ upward: [], intoTests: [], fileCycles: [], serviceFolderCycles: [] });
  });

  it("come from areas the map places", () => {
    const unplaced = new Set(edges.map((edge) => areaOf(edge.from)).filter((area) => area === null));
    expect([...unplaced]).toEqual([]);
  });
});

describe("transactions", () => {
  it("are opened by entry points only: no service opens one", () => {
    expect(findTransactionOpeners(repository)).toEqual([]);
  });

  it("the check finds a service that opens one", () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "openers-"));
    fs.mkdirSync(path.join(scratch, "lib/services/things"), { recursive: true });
    fs.mkdirSync(path.join(scratch, "lib/api"), { recursive: true });
    fs.writeFileSync(path.join(scratch, "lib/services/things/make-thing.ts"), "export const make = (db) => withTransaction(db, async (tx) => tx);\n");
    fs.writeFileSync(path.join(scratch, "lib/services/things/make-thing.test.ts"), "withTransaction(db, work);\n");
    fs.writeFileSync(path.join(scratch, "lib/api/dispatch.ts"), "runUnit(deps, unit, args);\n");
    expect(findTransactionOpeners(scratch)).toEqual(["lib/services/things/make-thing.ts"]);
    fs.rmSync(scratch, { recursive: true });
  });
});

describe("the check", () => {
  it("fails when a deliberate upward import is added", () => {
    const upward = { from: "lib/domain/money/amount", to: "lib/services/payouts/create-payout" };
    expect(checkImports([...edges, upward]).upward).toEqual([upward]);
    // Between two areas of one layer, too.
    const sideways = { from: "lib/services/payouts/send-payouts", to: "lib/metrics/registry" };
    expect(checkImports([sideways]).upward).toEqual([sideways]);
  });

  it("fails on production code importing test code, and lets test code import anything", () => {
    const intoTests = { from: "lib/services/payouts/send-payouts", to: "lib/testing/harness" };
    expect(checkImports([intoTests]).intoTests).toEqual([intoTests]);
    expect(checkImports([{ from: "lib/domain/money/amount.test", to: "app/layout" }])).toEqual({ upward: [], intoTests: [], fileCycles: [], serviceFolderCycles: [] });
  });

  it("finds a cycle of files within one area, and of service folders", () => {
    const ring: ImportEdge[] = [
      { from: "lib/api/a", to: "lib/api/b" },
      { from: "lib/api/b", to: "lib/api/c" },
      { from: "lib/api/c", to: "lib/api/a" },
    ];
    expect(checkImports(ring).fileCycles).toEqual([["lib/api/a", "lib/api/b", "lib/api/c"]]);
    const folders = checkImports([
      { from: "lib/services/payouts/x", to: "lib/services/refunds/y" },
      { from: "lib/services/refunds/z", to: "lib/services/payouts/w" },
    ]);
    expect(folders.fileCycles).toEqual([]);
    expect(folders.serviceFolderCycles).toEqual([["lib/services/payouts", "lib/services/refunds"]]);
    expect(findCycles([{ from: "a", to: "a" }])).toEqual([["a"]]);
  });

  it("reads static, type-only, re-exporting and dynamic imports, resolving folders to their index", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "import-rules-"));
    fs.mkdirSync(path.join(root, "lib/domain/money"), { recursive: true });
    fs.mkdirSync(path.join(root, "lib/catalogue"), { recursive: true });
    fs.writeFileSync(path.join(root, "lib/catalogue/index.ts"), "export const x = 1;\n");
    fs.writeFileSync(
      path.join(root, "lib/domain/money/amount.ts"),
      [
        'import { z } from "zod";',
        'import type { A } from "./ratio";',
        'export { x } from "@/lib/catalogue";',
        "const later = () => import(\"@/lib/services/payouts/create-payout\");",
        'import "./side-effect";',
      ].join("\n"),
    );
    expect(readImportEdges(root).map((edge) => edge.to).sort()).toEqual(["lib/catalogue/index", "lib/domain/money/ratio", "lib/domain/money/side-effect", "lib/services/payouts/create-payout"]);
  });
});
