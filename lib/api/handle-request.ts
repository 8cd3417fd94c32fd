import { getApiDeps } from "./deps";
import { dispatch, createRouter, observeRequests, type Router } from "./dispatch";
import { clientAddressOf } from "./client-ip";
import { OPERATIONS } from "./operations";
import { installRequestLog } from "@/lib/log/request-log";
import { recordApiRequest } from "@/lib/metrics/record-api-request";

// One log line per request, written once the answer is known.
installRequestLog();
// Counted per operation for Prometheus (lib/metrics), once per module copy like the log.
observeRequests(recordApiRequest);

let router: Router | undefined;

/** The route handler behind /v1/*: resolves the caller's address and dispatches. */
export async function handleApiRequest(request: Request): Promise<Response> {
  const deps = getApiDeps();
  router ??= createRouter(OPERATIONS);
  return dispatch(request, { clientIp: clientAddressOf(request.headers, deps.clientAddress), deps, router });
}
