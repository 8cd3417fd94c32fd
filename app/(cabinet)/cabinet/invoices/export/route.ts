import { getApiDeps } from "@/lib/api/deps";
import { csvExportResponse, exportDay } from "@/lib/cabinet/csv-response";
import { exportInvoicesCsv } from "@/lib/services/invoices/search-invoices";
import { readInvoiceQuery, toSearchFilters, type SearchParams } from "../invoice-filters";

export const dynamic = "force-dynamic";

/**
 * The invoices page's "Export CSV": exactly the filtered view (the page's own query string, read
 * by the same function), every page of it, streamed line by line. Route handlers are outside the
 * layout's session check, so csvExportResponse checks the session.
 */
export async function GET(request: Request): Promise<Response> {
  return csvExportResponse({
    subject: "invoices",
    failure: "invoice export failed",
    exportOf: (actor) => {
      const params: SearchParams = {};
      for (const [key, value] of new URL(request.url).searchParams) {
        const known = params[key];
        params[key] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
      }
      const query = readInvoiceQuery(params);
      return { lines: exportInvoicesCsv(getApiDeps(), actor.merchantId, toSearchFilters(query)), fileName: `invoices-${exportDay()}.csv` };
    },
  });
}
