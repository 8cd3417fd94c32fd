import { z } from "zod";
import { buildOpenApiDocument, type OpenApiDocument } from "@/lib/api/openapi/document";
import { defineOperation, type OperationEntry } from "../../operation";

let cached: { serverUrl: string; table: readonly OperationEntry[]; document: OpenApiDocument } | undefined;

/** Designed: GET /v1/openapi.json — the OpenAPI 3.1 document of this API, generated from the operation table. */
export const openApiDocumentOp = defineOperation({
  schema: z.object({}),
  invalidBody: "request.bad_json",
  summary: "Get this API's OpenAPI 3.1 document",
  description: "Generated from the operation table and the schemas the handlers validate with; the reference page at `/docs` renders it.",
  response: z.record(z.string(), z.unknown()).describe("An OpenAPI 3.1 document."),
  errors: [],
  handle: async (_input, context) => {
    const serverUrl = context.deps.config.publicBaseUrl;
    const table = context.operations;
    if (cached?.serverUrl !== serverUrl || cached.table !== table) cached = { serverUrl, table, document: buildOpenApiDocument({ serverUrl, table }) };
    return cached.document;
  },
});
