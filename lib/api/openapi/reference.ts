import type { OpenApiDocument } from "./document";

/** A JSON Schema as the document holds it (OpenAPI 3.1 is JSON Schema 2020-12). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
}

/** One line of a field table: `items[].amount`, its type in words, whether it must be there. */
export interface FieldRow {
  name: string;
  depth: number;
  type: string;
  isRequired: boolean;
  description: string;
  constraints: string;
}

const MAX_DEPTH = 5;

/** Follows `#/components/schemas/…` references (once per level; cycles stop at MAX_DEPTH). */
export function resolveSchema(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 10; hops++) {
    const name = current.$ref.replace(/^#\/components\/schemas\//, "");
    current = (document.components?.schemas?.[name] as JsonSchema | undefined) ?? undefined;
  }
  return current;
}

/** The variants of a union, without the `null` one (which becomes "or null"). */
function variantsOf(document: OpenApiDocument, schema: JsonSchema): { variants: JsonSchema[]; isNullable: boolean } {
  const union = schema.anyOf ?? schema.oneOf;
  if (!union) {
    const types = Array.isArray(schema.type) ? schema.type : null;
    if (types?.includes("null")) return { variants: [{ ...schema, type: types.filter((type) => type !== "null") }], isNullable: true };
    return { variants: [schema], isNullable: false };
  }
  const resolved = union.map((variant) => resolveSchema(document, variant) ?? {});
  const variants = resolved.filter((variant) => variant.type !== "null");
  return { variants, isNullable: variants.length < resolved.length };
}

/** A schema's type in words: "string", "array of object", "one of `a`, `b`", "integer or null". */
export function typeInWords(document: OpenApiDocument, input: JsonSchema | undefined): string {
  const schema = resolveSchema(document, input);
  if (!schema) return "any";
  const { variants, isNullable } = variantsOf(document, schema);
  const words = variants.map((variant) => singleType(document, variant));
  const unique = [...new Set(words)];
  return `${unique.join(" or ") || "any"}${isNullable ? " or null" : ""}`;
}

function singleType(document: OpenApiDocument, schema: JsonSchema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return `one of ${schema.enum.map((value) => `\`${typeof value === "string" ? value : JSON.stringify(value)}\``).join(", ")}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type;
  if (type === "array") return `array of ${typeInWords(document, schema.items)}`;
  if (schema.allOf?.length) return typeInWords(document, schema.allOf[0]);
  if (!type) return schema.properties ? "object" : "any";
  return schema.format ? `${type} (${schema.format})` : type;
}

function constraintsOf(schema: JsonSchema): string {
  const parts: string[] = [];
  const safe = (value: number | undefined) => value !== undefined && Math.abs(value) < Number.MAX_SAFE_INTEGER;
  if (safe(schema.minimum) && safe(schema.maximum)) parts.push(`${schema.minimum} to ${schema.maximum}`);
  else if (safe(schema.minimum)) parts.push(`at least ${schema.minimum}`);
  else if (safe(schema.maximum)) parts.push(`at most ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(schema.minLength ? `${schema.minLength}–${schema.maxLength} characters` : `up to ${schema.maxLength} characters`);
  if (schema.maxItems !== undefined) parts.push(`${schema.minItems ?? 0} to ${schema.maxItems} items`);
  return parts.join("; ");
}

/** The object whose fields a table lists: the schema itself, an array's items, or a union's object variants merged. */
function objectOf(document: OpenApiDocument, input: JsonSchema | undefined): JsonSchema | undefined {
  const schema = resolveSchema(document, input);
  if (!schema) return undefined;
  if (schema.properties) return schema;
  if (schema.type === "array") return objectOf(document, schema.items);
  if (!schema.anyOf && !schema.oneOf) return schema.allOf?.length ? objectOf(document, schema.allOf[0]) : undefined;
  const { variants } = variantsOf(document, schema);
  const objects = variants.map((variant) => objectOf(document, variant)).filter((variant): variant is JsonSchema => !!variant?.properties);
  if (objects.length === 0) return undefined;
  // A union of objects: every field that any variant has; required only where all require it.
  const properties = Object.assign({}, ...objects.map((object) => object.properties)) as Record<string, JsonSchema>;
  const required = Object.keys(properties).filter((name) => objects.every((object) => object.required?.includes(name)));
  return { type: "object", properties, required };
}

/** The rows of a field table for a schema, nested fields indented under their parent. */
export function fieldRows(document: OpenApiDocument, input: JsonSchema | undefined, prefix = "", depth = 0): FieldRow[] {
  const object = objectOf(document, input);
  if (!object?.properties || depth >= MAX_DEPTH) return [];
  const rows: FieldRow[] = [];
  for (const [name, raw] of Object.entries(object.properties)) {
    const schema = resolveSchema(document, raw) ?? {};
    const fullName = `${prefix}${name}`;
    rows.push({
      name: fullName,
      depth,
      type: typeInWords(document, raw),
      isRequired: object.required?.includes(name) ?? false,
      description: raw.description ?? schema.description ?? "",
      constraints: constraintsOf(schema),
    });
    const isArray = schema.type === "array" || variantsOf(document, schema).variants.some((variant) => variant.type === "array");
    rows.push(...fieldRows(document, schema, `${fullName}${isArray ? "[]" : ""}.`, depth + 1));
  }
  return rows;
}

/** An operation of the document as the reference page shows it. */
export interface ReferenceOperation {
  id: string;
  method: "GET" | "POST";
  path: string;
  summary: string;
  description: string;
  tag: string;
  keyKinds: string[];
  isIdempotent: boolean;
  requestFields: FieldRow[];
  requestExample: unknown;
  successStatus: string;
  responseFields: FieldRow[];
  responseExample: unknown;
  errors: { code: string; status: string; message: string }[];
}

interface DocumentOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema; example?: unknown }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema; example?: unknown }> }>;
  "x-key-kinds"?: string[];
  "x-idempotent"?: boolean;
}

/** Every operation of the document, in the order of its tags, ready to render. */
export function referenceOperations(document: OpenApiDocument): ReferenceOperation[] {
  const operations: ReferenceOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ["get", "post"] as const) {
      const operation = item[method] as DocumentOperation | undefined;
      if (!operation) continue;
      const request = operation.requestBody?.content?.["application/json"];
      const [successStatus, success] = Object.entries(operation.responses).find(([status]) => status.startsWith("2")) ?? ["200", undefined];
      const successContent = success?.content?.["application/json"];
      const successSchema = resolveSchema(document, successContent?.schema);
      // Inside the `{state, result}` envelope the fields worth a table are the result's.
      const resultSchema = successSchema?.properties?.result ?? successSchema;
      const example = successContent?.example as { result?: unknown } | undefined;
      operations.push({
        id: operation.operationId,
        method: method === "get" ? "GET" : "POST",
        path,
        summary: operation.summary ?? path,
        description: operation.description ?? "",
        tag: operation.tags?.[0] ?? "Other",
        keyKinds: operation["x-key-kinds"] ?? [],
        isIdempotent: operation["x-idempotent"] ?? false,
        requestFields: fieldRows(document, request?.schema),
        requestExample: request?.example,
        successStatus,
        responseFields: fieldRows(document, resultSchema),
        responseExample: successSchema?.properties?.result && example && typeof example === "object" && "result" in example ? example.result : example,
        errors: errorsOf(operation),
      });
    }
  }
  const tagOrder = (document.tags ?? []).map((tag) => tag.name);
  return operations.sort((a, b) => tagOrder.indexOf(a.tag) - tagOrder.indexOf(b.tag));
}

function errorsOf(operation: DocumentOperation): ReferenceOperation["errors"] {
  const errors: ReferenceOperation["errors"] = [];
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!/^[45]/.test(status) || status === "429") continue;
    // The response's description lists "- `code`: message" per code of that status.
    for (const line of (response.description ?? "").split("\n")) {
      const match = /^- `([^`]+)`: (.*)$/.exec(line);
      if (match) errors.push({ code: match[1], status, message: match[2] });
    }
  }
  if (operation.responses["429"]) errors.push({ code: "(429 body)", status: "429", message: "Too many requests; retry after the interval in Retry-After." });
  return errors;
}

/** A webhook event as the reference page shows it. */
export interface ReferenceEvent {
  type: string;
  description: string;
  fields: FieldRow[];
  headers: { name: string; description: string; isRequired: boolean }[];
}

export function referenceEvents(document: OpenApiDocument): ReferenceEvent[] {
  return Object.entries(document.webhooks ?? {}).map(([type, item]) => {
    const operation = item.post as (DocumentOperation & { parameters?: { name: string; description?: string; required?: boolean }[] }) | undefined;
    return {
      type,
      description: operation?.description ?? "",
      fields: fieldRows(document, operation?.requestBody?.content?.["application/json"]?.schema),
      headers: (operation?.parameters ?? []).map((parameter) => ({ name: parameter.name, description: parameter.description ?? "", isRequired: parameter.required ?? false })),
    };
  });
}
