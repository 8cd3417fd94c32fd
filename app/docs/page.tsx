import type { Metadata } from "next";
import { ReferencePage } from "@/components/docs/reference-page";
import { getConfig } from "@/lib/config/env";
import { readThemePreference } from "@/lib/cabinet/page-theme";
import { buildOpenApiDocument, type OpenApiDocument } from "@/lib/api/openapi/document";
import { OPERATIONS } from "@/lib/api/operations";

export const metadata: Metadata = { title: "API reference" };

let cached: OpenApiDocument | undefined;

/** `/docs`: the API reference, from the same document `GET /v1/openapi.json` serves. */
export default async function DocsPage() {
  cached ??= buildOpenApiDocument({ serverUrl: getConfig().publicBaseUrl, table: OPERATIONS });
  return <ReferencePage document={cached} theme={await readThemePreference()} />;
}
