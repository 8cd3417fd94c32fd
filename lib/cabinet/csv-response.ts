import { findCurrentActor } from "@/lib/cabinet/current-actor";
import { isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { CabinetActor } from "@/lib/services/cabinet/sessions";

/**
 * A cabinet CSV export: checks the session (route handlers are outside the layout's session
 * check), then streams the lines `exportOf` gives as a no-store attachment, line by line, pulling
 * the next one only when the client takes it.
 */
export async function csvExportResponse({
  subject,
  failure,
  exportOf,
}: {
  /** What is exported, in the refusal without a session: "Sign in to export <subject>." */
  subject: string;
  /** The log message when the export fails midway. */
  failure: string;
  /** The CSV lines (each with its line end) and the attachment's file name. */
  exportOf(actor: CabinetActor): { lines: AsyncGenerator<string, void, undefined>; fileName: string };
}): Promise<Response> {
  const actor = await findCurrentActor();
  if (!actor) return new Response(`Sign in to export ${subject}.\n`, { status: 401, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  const { lines, fileName } = exportOf(actor);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        // The headers are sent already: the download ends short rather than passing for complete.
        log.error(failure, { merchantId: actor.merchantId, error: isAppError(error) ? error.code : error });
        controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/** Today's date (UTC) as a file name part: 2024-05-31. */
export function exportDay(): string {
  return new Date().toISOString().slice(0, 10);
}
