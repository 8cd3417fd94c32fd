import { getApiDeps } from "@/lib/api/deps";
import { findCurrentActor } from "@/lib/cabinet/current-actor";
import { isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { exportPayoutsCsv } from "@/lib/services/cabinet/payout-queries";
import { readPayoutQuery, toSearchFilters } from "../payout-filters";

export const dynamic = "force-dynamic";

/**
 * The payouts page's "Export CSV": exactly the filtered view (the page's own URL parameters), every
 * page of it, streamed line by line. Route handlers are outside the layout's session check, so
 * the session is checked here.
 */
export async function GET(request: Request): Promise<Response> {
  const actor = await findCurrentActor();
  if (!actor) return new Response("Sign in to export payouts.\n", { status: 401, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  const url = new URL(request.url);
  const params: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) (params[key] ??= []).push(value);
  const query = readPayoutQuery(params);
  const lines = exportPayoutsCsv(getApiDeps(), actor.merchantId, toSearchFilters(query));
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        // Headers are gone already: the download ends short rather than passing for complete.
        log.error("payout export failed", { merchantId: actor.merchantId, error: isAppError(error) ? error.code : error });
        controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  const name = query.view === "approval" ? `payouts-awaiting-approval-${day}.csv` : `payouts-${day}.csv`;
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
