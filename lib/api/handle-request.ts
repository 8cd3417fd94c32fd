import { getApiDeps } from "./deps";
import { dispatch, createRouter, type Router } from "./dispatch";
import { observeRequests } from "./request-observation";
import { clientAddressOf } from "./client-ip";
import { OPERATIONS } from "./operations";
import { answerAsResponse, apiRequestFromFetch, type ApiAnswer, type ApiRequest } from "./api-request";
import { installRequestLog } from "@/lib/api/request-log";
import { recordApiRequest } from "@/lib/api/record-api-request";

// One log line per request, written once the answer is known.
installRequestLog();
// Counted per operation for Prometheus (lib/metrics), once per module copy like the log.
observeRequests(recordApiRequest);

let router: Router | undefined;

/** Answers one /v1 request with the process's collaborators: resolves the caller's address and dispatches. */
export function answerApiRequest(request: ApiRequest): Promise<ApiAnswer> {
  const deps = getApiDeps();
  router ??= createRouter(OPERATIONS);
  return dispatch(request, { clientIp: clientAddressOf(request.headers, deps.clientAddress), deps, router });
}

/** The route handler behind /v1/* (where `npm start`'s server does not answer it first, e.g. Vercel). */
export async function handleApiRequest(request: Request): Promise<Response> {
  return answerAsResponse(await answerApiRequest(apiRequestFromFetch(request)));
}
