import { observeRequests, type RequestObservation } from "@/lib/api/request-observation";
import { log, type LogFields } from "@/lib/log";

/** The message of every request line: one fixed word to grep for. */
export const REQUEST_LOG_MESSAGE = "request";

/**
 * One line per /v1 request. Info for answers (2xx, 4xx — refusals are business outcomes, not
 * failures), warn for a temporary failure (503), error with the cause for an unexpected one (500).
 */
export function logRequest(observation: RequestObservation): void {
  const fields: LogFields = {
    request_id: observation.requestId,
    method: observation.method,
    operation: observation.entry?.path ?? null,
    path: observation.path,
    merchant_id: observation.merchantId,
    status: observation.status,
    code: observation.code ?? "ok",
    duration_ms: Math.round(observation.durationMs * 10) / 10,
    client_ip: observation.clientIp,
  };
  if (observation.status < 500) return log.info(REQUEST_LOG_MESSAGE, fields);
  if (observation.error !== undefined) fields.error = observation.error;
  if (observation.status === 500) log.error(REQUEST_LOG_MESSAGE, fields);
  else log.warn(REQUEST_LOG_MESSAGE, fields);
}

let isInstalled = false;

/** Makes dispatch log every request through logRequest; a second call adds no second line. */
export function installRequestLog(): void {
  if (isInstalled) return;
  isInstalled = true;
  observeRequests(logRequest);
}
