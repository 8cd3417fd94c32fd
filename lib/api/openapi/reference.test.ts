import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createDocument } from "zod-openapi";
import { fieldRows, referenceOperations, typeInWords } from "./reference";

const ITEM = z.object({ amount: z.string().describe("A decimal string."), status: z.enum(["paid", "cancel"]) }).meta({ id: "Item" });
const document = createDocument({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  tags: [{ name: "B" }, { name: "A" }],
  paths: {
    "/a": {
      post: {
        operationId: "a",
        tags: ["A"],
        requestBody: { content: { "application/json": { schema: z.object({ items: z.array(ITEM).max(5), note: z.string().nullable().optional() }) } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: z.object({ state: z.literal(0), result: ITEM }) } } } },
      },
    },
    "/b": { get: { operationId: "b", tags: ["B"], responses: { "400": { description: "- `x.bad`: Bad.\n- `x.worse`: Worse." } } } },
  },
});

describe("the reference page's reading of the document", () => {
  it("lists nested fields of arrays and referenced schemas, with types in words", () => {
    const requestBody = document.paths!["/a"].post!.requestBody as { content: Record<string, { schema: unknown }> };
    const rows = fieldRows(document, requestBody.content["application/json"].schema as never);
    expect(rows.map((row) => [row.name, row.type, row.isRequired])).toEqual([
      ["items", "array of object", true],
      ["items[].amount", "string", true],
      ["items[].status", "one of `paid`, `cancel`", true],
      ["note", "string or null", false],
    ]);
    expect(rows[0].constraints).toBe("0 to 5 items");
    expect(rows[1].description).toBe("A decimal string.");
  });

  it("orders operations by their section, shows the result inside the envelope, and reads error codes", () => {
    const operations = referenceOperations(document);
    expect(operations.map((operation) => operation.id)).toEqual(["b", "a"]);
    expect(operations[1].responseFields.map((row) => row.name)).toEqual(["amount", "status"]);
    expect(operations[0].errors).toEqual([
      { code: "x.bad", status: "400", message: "Bad." },
      { code: "x.worse", status: "400", message: "Worse." },
    ]);
    expect(typeInWords(document, { type: ["integer", "null"] })).toBe("integer or null");
  });
});
