import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from "zod-openapi";
import type { oas31 } from "zod-openapi";
import { documentedErrorCodes } from "@/lib/api/contract";
import type { OperationEntry } from "@/lib/api/operation";
import { ERROR_CATALOGUE, type ErrorCode } from "@/lib/errors";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/event-schemas";
import packageJson from "@/package.json";
import { tagOf, TAGS } from "./tags";

export type OpenApiDocument = oas31.OpenAPIObject;

const SIGNED_SECURITY = [{ PublicId: [], Timestamp: [], Signature: [] }];

const RATE_LIMITED_BODY = z
  .object({ state: z.literal(1), message: z.string() })
  .meta({ id: "RateLimited", description: "spec: a 429 has this body (no `error` object) and a Retry-After header." });

const REQUEST_ID_HEADER = { "X-Request-Id": { description: "The request's id, in logs too: quote it when asking for help.", schema: { type: "string" as const } } };

/** The operationId of a row: its path in camel case, `get` first for a GET beside a POST of the same path. */
export function operationIdOf(entry: OperationEntry, table: readonly OperationEntry[]): string {
  const words = entry.path
    .split("/")
    .filter((segment) => segment && segment !== "v1" && !segment.startsWith("{"))
    .flatMap((segment) => segment.split(/[-_]/));
  const base = words.map((word, index) => (index === 0 ? word : word[0].toUpperCase() + word.slice(1))).join("");
  const hasSibling = table.some((other) => other !== entry && other.path === entry.path);
  return entry.method === "GET" && hasSibling ? `get${base[0].toUpperCase()}${base.slice(1)}` : base;
}

function successSchema(entry: OperationEntry): z.ZodType {
  const { response } = entry.operation.docs;
  return entry.envelope === "standard" ? z.object({ state: z.literal(0), result: response }) : response;
}

function errorResponses(entry: OperationEntry): Record<string, ZodOpenApiResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of documentedErrorCodes(entry)) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    codes.sort();
    responses[String(status)] = {
      description: codes.map((code) => `- \`${code}\`: ${ERROR_CATALOGUE[code].message}`).join("\n"),
      headers: REQUEST_ID_HEADER,
      content: {
        "application/json": {
          schema: z.object({ error: z.object({ code: z.enum(codes as [ErrorCode, ...ErrorCode[]]), message: z.string() }) }),
          example: { error: { code: codes[0], message: ERROR_CATALOGUE[codes[0]].message } },
        },
      },
    };
  }
  responses["429"] = {
    description: "Rate limited: retry after the interval in Retry-After.",
    headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } }, ...REQUEST_ID_HEADER },
    content: { "application/json": { schema: RATE_LIMITED_BODY } },
  };
  return responses;
}

function operationObject(entry: OperationEntry, table: readonly OperationEntry[]): ZodOpenApiOperationObject {
  const { docs, input } = entry.operation;
  const pathParams = [...entry.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const parameters: oas31.ParameterObject[] = pathParams.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
  if (entry.idempotent) {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "Any unique value up to 255 characters, identical across attempts of one action: a repeat answers the first response with `Idempotent-Replayed: true`.",
      schema: { type: "string", minLength: 1, maxLength: 255 },
    });
  }
  const successHeaders: Record<string, oas31.HeaderObject> = { ...REQUEST_ID_HEADER };
  if (entry.idempotent) successHeaders["Idempotent-Replayed"] = { description: "`true` on a repeat answered from the Idempotency-Key's record.", schema: { type: "string", enum: ["true"] } };
  const keys = entry.auth.kind === "signed" ? entry.auth.keys : [];
  return {
    operationId: operationIdOf(entry, table),
    summary: docs.summary,
    description: [docs.description, entry.auth.kind === "signed" ? `Key kinds: ${keys.map((kind) => `\`${kind}\``).join(", ")}.` : "Public: no signature."]
      .filter(Boolean)
      .join("\n\n"),
    tags: [tagOf(entry.path)],
    security: entry.auth.kind === "signed" ? SIGNED_SECURITY : [],
    parameters,
    ...(entry.method === "POST"
      ? {
          requestBody: {
            required: false,
            content: { "application/json": { schema: docs.documentedRequest ?? input.schema, ...(docs.requestExample !== undefined ? { example: docs.requestExample } : {}) } },
          },
        }
      : {}),
    responses: {
      [entry.envelope === "created" ? "201" : "200"]: {
        description: "Success.",
        headers: successHeaders,
        content: {
          "application/json": {
            schema: successSchema(entry),
            ...(docs.responseExample !== undefined ? { example: entry.envelope === "standard" ? { state: 0, result: docs.responseExample } : docs.responseExample } : {}),
          },
        },
      },
      ...errorResponses(entry),
    },
    "x-key-kinds": keys,
    "x-idempotent": entry.idempotent,
    "x-error-codes": documentedErrorCodes(entry).sort(),
  } as ZodOpenApiOperationObject;
}

const DELIVERY_HEADERS: oas31.ParameterObject[] = [
  { name: "X-Webhook-Event", in: "header", required: true, description: "The event type.", schema: { type: "string" } },
  { name: "X-Webhook-Timestamp", in: "header", required: true, description: "Unix seconds at sending.", schema: { type: "string" } },
  {
    name: "X-Webhook-Signature",
    in: "header",
    required: true,
    description: "Hex HMAC-SHA256, keyed with the endpoint secret, over `<X-Webhook-Timestamp>.<raw body>`. Compare in constant time.",
    schema: { type: "string" },
  },
  {
    name: "X-Webhook-Signature-Previous",
    in: "header",
    required: false,
    description: "During a secret rotation's overlap: the same signature with the previous secret.",
    schema: { type: "string" },
  },
  { name: "X-Webhook-Id", in: "header", required: true, description: "The delivery's id, the same on every attempt.", schema: { type: "string", format: "uuid" } },
  {
    name: "X-Webhook-Event-Id",
    in: "header",
    required: false,
    description:
      "The event's id (`POST /v1/events/info`), the same on every delivery and redelivery of one event: deduplicate on it. Absent on test deliveries and on deliveries recorded before the event log.",
    schema: { type: "string", format: "uuid" },
  },
];

/**
 * The OpenAPI 3.1 document of the whole API, generated from the operation table and each
 * operation's schemas and docs: never written by hand, so it cannot drift from what runs.
 */
export function buildOpenApiDocument(options: { serverUrl?: string; table: readonly OperationEntry[] }): OpenApiDocument {
  const table = options.table;
  const paths: ZodOpenApiPathsObject = {};
  for (const entry of table) {
    const item = (paths[entry.path] ??= {});
    item[entry.method === "GET" ? "get" : "post"] = operationObject(entry, table);
  }
  const webhooks: ZodOpenApiPathsObject = {};
  for (const event of WEBHOOK_EVENT_TYPES) {
    webhooks[event.type] = {
      post: {
        operationId: `webhook_${event.type.replace(/\W/g, "_")}`,
        summary: event.type,
        description: `${event.when} Delivered at least once; deduplicate on \`uuid\` plus \`status\` and answer 2xx only after processing.`,
        tags: ["Webhook events"],
        security: [],
        parameters: DELIVERY_HEADERS,
        requestBody: { required: true, content: { "application/json": { schema: event.body } } },
        responses: { "200": { description: "Any 2xx acknowledges the delivery; anything else is retried with backoff." } },
      },
    };
  }
  return createDocument(
    {
    openapi: "3.1.0",
    info: {
      title: "Gateway API",
      version: packageJson.version,
      description: API_DESCRIPTION,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: options.serverUrl ? [{ url: options.serverUrl }] : undefined,
    tags: TAGS,
    paths,
    webhooks,
    components: {
      schemas: { RateLimited: RATE_LIMITED_BODY },
      securitySchemes: {
        PublicId: { type: "apiKey", in: "header", name: "X-Public-Id", description: "The API key's public id." },
        Timestamp: { type: "apiKey", in: "header", name: "X-Timestamp", description: "Unix seconds; the service accepts ±300 s." },
        Signature: {
          type: "apiKey",
          in: "header",
          name: "X-Signature",
          description: "Hex HMAC-SHA256, keyed with the API secret, over `<X-Timestamp>\\n<METHOD>\\n<path with query>\\n<raw body>`.",
        },
      },
    },
  },
    {
      // Answers may gain fields: a client must not refuse an object for a property it does not know.
      override: (context) => {
        if (context.io === "output" && context.jsonSchema.additionalProperties === false) delete context.jsonSchema.additionalProperties;
      },
    },
  );
}

const API_DESCRIPTION = `A self-hostable cryptocurrency payment gateway: invoices, payment links, static wallets, refunds, payouts, payout links, split rules and signed webhooks.

**Transport.** JSON over HTTPS; a body of at most 1 MiB. A success is \`{"state": 0, "result": …}\` unless the operation says otherwise; a refusal is \`{"error": {"code", "message"}}\` with the HTTP status of its code. \`code\` (\`<domain>.<reason>\`) is the contract; \`message\` may change.

**Signing.** Signed operations carry \`X-Public-Id\`, \`X-Timestamp\` (Unix seconds) and \`X-Signature\`: the hex HMAC-SHA256, keyed with the API secret, of \`<X-Timestamp>\\n<METHOD>\\n<path with query>\\n<raw body>\` over the exact bytes sent.

**Retries.** Creating operations accept \`Idempotency-Key\`; reuse it on every retry of one action. A 429 carries \`Retry-After\`; a 503 means nothing was done.`;
