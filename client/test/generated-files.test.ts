import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderClientFiles } from "../scripts/render-client-files";
import { OPERATIONS } from "../src";

// The committed document and types must be what the operation table generates today: a change
// to an operation without `npm run client:generate` fails here instead of shipping a client that lies.

const clientDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function firstDifference(committed: string, fresh: string): { line: number; committed: string; fresh: string } | null {
  const committedLines = committed.split("\n");
  const freshLines = fresh.split("\n");
  const index = freshLines.findIndex((line, at) => line !== committedLines[at]);
  if (index === -1) return committedLines.length === freshLines.length ? null : { line: freshLines.length + 1, committed: committedLines[freshLines.length] ?? "", fresh: "" };
  return { line: index + 1, committed: committedLines[index] ?? "", fresh: freshLines[index] };
}

describe("generated client files", () => {
  it("equal a fresh generation from the operation table (run `npm run client:generate`)", { timeout: 180_000 }, async () => {
    const fresh = await renderClientFiles();
    for (const [relativePath, text] of Object.entries(fresh)) {
      const committed = fs.readFileSync(path.join(clientDirectory, relativePath), "utf8");
      // Only the first differing line is shown: the files are megabytes long.
      expect(firstDifference(committed, text), `client/${relativePath} is stale: run \`npm run client:generate\``).toBeNull();
    }
  });

  it("mark reads, idempotent creates and cursor-paged lists as the client's retries and paginate assume", () => {
    const keys = (flag: "readOnly" | "idempotent" | "cursorPaginated" | "signed") =>
      Object.entries(OPERATIONS)
        .filter(([, facts]) => facts[flag])
        .map(([key]) => key);
    expect(keys("idempotent")).toEqual(expect.arrayContaining(["POST /v1/payment", "POST /v1/payout", "POST /v1/payment/refund", "POST /v1/wallet", "POST /v1/payment/batch"]));
    expect(keys("idempotent")).not.toContain("POST /v1/payout/link"); // spec: deduplicated by `reference`, not by the key
    expect(keys("readOnly")).toEqual(expect.arrayContaining(["POST /v1/payment/info", "POST /v1/payment/history", "POST /v1/payout/calculate", "POST /v1/balance", "GET /v1/currencies"]));
    for (const write of ["POST /v1/payment", "POST /v1/payout/approve", "POST /v1/payout/cancel", "POST /v1/claim/{token}", "POST /v1/pay/{id}/select", "POST /v1/webhooks/rotate-secret"]) {
      expect(keys("readOnly")).not.toContain(write);
    }
    expect(keys("cursorPaginated")).toEqual(expect.arrayContaining(["POST /v1/payment/list", "POST /v1/payment/history"]));
    expect(keys("signed")).not.toContain("GET /v1/currencies");
    expect(OPERATIONS["GET /v1/currencies"].enveloped).toBe(false);
    expect(OPERATIONS["POST /v1/webhooks"].enveloped).toBe(false);
    expect(OPERATIONS["POST /v1/payment"].enveloped).toBe(true);
  });
});
