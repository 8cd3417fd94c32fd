import { z } from "zod";
import { buildOpenApiDocument, type OpenApiDocument } from "@/lib/openapi/document";
import { defineOperation } from "../../operation";

let cached: { serverUrl: string; document: OpenApiDocument } | undefined;

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
    if (cached?.serverUrl !== serverUrl) cached = { serverUrl, document: buildOpenApiDocument({ serverUrl }) };
    return cached.document;
  },
});
