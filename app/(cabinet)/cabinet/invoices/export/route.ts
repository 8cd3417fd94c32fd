import { getApiDeps } from "@/lib/api/deps";
import { findCurrentActor } from "@/lib/cabinet/current-actor";
import { isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { exportInvoicesCsv } from "@/lib/services/cabinet/invoice-search";
import { readInvoiceQuery, toSearchFilters, type SearchParams } from "../invoice-filters";

export const dynamic = "force-dynamic";

/**
 * The invoices page's "Export CSV": exactly the filtered view (the page's own query string, read
 * by the same function), every page of it, streamed line by line. Route handlers are outside the
 * layout's session check, so the session is checked here.
 */
export async function GET(request: Request): Promise<Response> {
  const actor = await findCurrentActor();
  if (!actor) return new Response("Sign in to export invoices.\n", { status: 401, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  const params: SearchParams = {};
  for (const [key, value] of new URL(request.url).searchParams) {
    const known = params[key];
    params[key] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  const query = readInvoiceQuery(params);
  const lines = exportInvoicesCsv(getApiDeps(), actor.merchantId, toSearchFilters(query));
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        // The headers are sent already: the download ends short rather than passing for complete.
        log.error("invoice export failed", { merchantId: actor.merchantId, error: isAppError(error) ? error.code : error });
        controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="invoices-${day}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
