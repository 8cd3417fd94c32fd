import { getApiDeps } from "@/lib/api/deps";
import { csvExportResponse, exportDay } from "@/lib/cabinet/csv-response";
import { exportPayoutsCsv } from "@/lib/services/payouts/search-payouts";
import { readPayoutQuery, toSearchFilters } from "../payout-filters";

export const dynamic = "force-dynamic";

/**
 * The payouts page's "Export CSV": exactly the filtered view (the page's own URL parameters), every
 * page of it, streamed line by line. Route handlers are outside the layout's session check, so
 * csvExportResponse checks the session.
 */
export async function GET(request: Request): Promise<Response> {
  return csvExportResponse({
    subject: "payouts",
    failure: "payout export failed",
    exportOf: (actor) => {
      const params: Record<string, string[]> = {};
      for (const [key, value] of new URL(request.url).searchParams) (params[key] ??= []).push(value);
      const query = readPayoutQuery(params);
      const day = exportDay();
      const fileName = query.view === "approval" ? `payouts-awaiting-approval-${day}.csv` : `payouts-${day}.csv`;
      return { lines: exportPayoutsCsv(getApiDeps(), actor.merchantId, toSearchFilters(query)), fileName };
    },
  });
}
