import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { documentedErrorCodes, responseMismatch } from "@/lib/api/contract";
import { OPERATIONS } from "@/lib/api/operations";
import type { OperationEntry } from "@/lib/api/operation";
import { ERROR_CATALOGUE, isErrorCode, parseInput } from "@/lib/errors";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/event-schemas";
import { buildOpenApiDocument, operationIdOf } from "./document";

const document = buildOpenApiDocument({ serverUrl: "https://gateway.merchant.test", table: OPERATIONS });
const operationOf = (entry: OperationEntry) => document.paths?.[entry.path]?.[entry.method === "GET" ? "get" : "post"];

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 with no problem under Redocly's strict recommended rules (examples validate against their schemas)", async () => {
    const config = await createConfig({ extends: ["recommended-strict"] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "openapi.json", config });
    const described = problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(described).toEqual([]);
  }, 60_000);

  it("describes every operation of the table, once, with a unique operationId", () => {
    const ids = new Set<string>();
    for (const entry of OPERATIONS) {
      const operation = operationOf(entry);
      expect(operation, `${entry.method} ${entry.path}`).toBeDefined();
      expect(operation?.operationId).toBe(operationIdOf(entry, OPERATIONS));
      ids.add(operationIdOf(entry, OPERATIONS));
    }
    expect(ids.size).toBe(OPERATIONS.length);
    const documented = Object.values(document.paths ?? {}).flatMap((item) => [item.get, item.post].filter(Boolean));
    expect(documented.length).toBe(OPERATIONS.length);
  });

  it("lists for each operation every code it may answer, under the code's own HTTP status", () => {
    for (const entry of OPERATIONS) {
      const operation = operationOf(entry) as Record<string, unknown> & { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
      const codes = documentedErrorCodes(entry);
      expect(operation["x-error-codes"]).toEqual([...codes].sort());
      for (const code of codes) {
        expect(isErrorCode(code)).toBe(true);
        const text = JSON.stringify(operation.responses[String(ERROR_CATALOGUE[code].status)]);
        expect(text, `${entry.path} ${code}`).toContain(`"${code}"`);
      }
      expect(operation.responses["429"], entry.path).toBeDefined();
    }
  });

  it("marks key kinds and idempotency as the table does", () => {
    for (const entry of OPERATIONS) {
      const operation = operationOf(entry) as Record<string, unknown>;
      expect(operation["x-idempotent"]).toBe(entry.idempotent);
      expect(operation["x-key-kinds"]).toEqual(entry.auth.kind === "signed" ? entry.auth.keys : []);
      const parameters = (operation.parameters ?? []) as { name: string }[];
      expect(parameters.some((parameter) => parameter.name === "Idempotency-Key"), entry.path).toBe(entry.idempotent);
    }
  });

  it("has a summary for every operation, and examples its operation accepts and answers exactly", () => {
    for (const entry of OPERATIONS) {
      const { docs, input } = entry.operation;
      expect(docs.summary.length, entry.path).toBeGreaterThan(5);
      if (entry.method === "POST" && docs.requestExample !== undefined) {
        expect(() => parseInput(input, docs.requestExample), `${entry.path} request example`).not.toThrow();
      }
      if (docs.responseExample !== undefined) expect(responseMismatch(entry, docs.responseExample), `${entry.path} response example`).toBeNull();
    }
  });

  it("documents every webhook event with its body and the delivery headers", () => {
    for (const event of WEBHOOK_EVENT_TYPES) {
      const operation = document.webhooks?.[event.type]?.post as { parameters: { name: string }[] } | undefined;
      expect(operation, event.type).toBeDefined();
      expect(operation?.parameters.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(["X-Webhook-Signature", "X-Webhook-Timestamp", "X-Webhook-Id"]));
    }
  });
});

describe("the contract check", () => {
  const entry: OperationEntry = {
    method: "POST",
    path: "/v1/example",
    auth: { kind: "public" },
    idempotent: false,
    envelope: "standard",
    operation: {
      run: async () => ({}),
      input: { schema: z.object({}), invalidBody: "payment.bad_request" },
      docs: { summary: "Example operation", response: z.object({ amount: z.string(), note: z.string().nullable() }), errors: ["payment.not_found"] },
    },
  };

  it("accepts a result that matches the schema exactly", () => {
    expect(responseMismatch(entry, { amount: "1.00", note: null })).toBeNull();
  });

  it("refuses a field the schema does not name, a wrong type and a missing field", () => {
    expect(responseMismatch(entry, { amount: "1.00", note: null, secret: "x" })).toContain("secret");
    expect(responseMismatch(entry, { amount: 1, note: null })).toContain("amount");
    expect(responseMismatch(entry, { amount: "1.00" })).toContain("note");
  });

  it("lists the generic codes with the operation's own", () => {
    const codes = documentedErrorCodes(entry);
    expect(codes).toEqual(expect.arrayContaining(["payment.not_found", "payment.bad_request", "request.bad_json", "internal.error"]));
    expect(codes).not.toContain("merchant.bad_signature");
  });
});
