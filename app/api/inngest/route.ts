import { serve } from "inngest/next";
import { inngest } from "@/lib/jobs/inngest/client";
import { functions } from "@/inngest/functions";
import { getConfig } from "@/lib/config/env";

export const dynamic = "force-dynamic";

const handlers = serve({ client: inngest, functions });
const notFound = () => Response.json({ state: 1, error: { code: "not_found", message: "Not found." } }, { status: 404 });

/** Mounted only for the Inngest driver (GATEWAY_WORKER=inngest): elsewhere nobody may trigger the functions. */
function onlyWithInngest(handler: (request: Request, context: unknown) => Promise<Response>) {
  return (request: Request, context: unknown) => (getConfig().worker === "inngest" ? handler(request, context) : notFound());
}

export const GET = onlyWithInngest(handlers.GET as (request: Request, context: unknown) => Promise<Response>);
export const POST = onlyWithInngest(handlers.POST as (request: Request, context: unknown) => Promise<Response>);
export const PUT = onlyWithInngest(handlers.PUT as (request: Request, context: unknown) => Promise<Response>);
