import type { RequestObservation } from "@/lib/api/request-observation";
import { getGatewayMetrics, type GatewayMetrics } from "@/lib/metrics/registry";

/** Methods kept as label values; anything else a client sends is counted as "other". */
const KNOWN_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

/**
 * Counts an answered API request (a request observer, see observeRequests). The operation is the
 * table's path template (`/v1/pay/{id}`), never the raw path, and a path that names no operation
 * is "unmatched": labels stay a small, fixed set whatever clients send. A success's code is
 * "ok", as in the request log.
 */
export function recordApiRequest(observation: RequestObservation, metrics: GatewayMetrics = getGatewayMetrics()): void {
  const operation = observation.entry?.path ?? "unmatched";
  const method = KNOWN_METHODS.has(observation.method) ? observation.method : "other";
  metrics.apiRequests.inc({ operation, method, status: String(observation.status), code: observation.code ?? "ok" });
  metrics.apiRequestDuration.observe({ operation, method }, observation.durationMs / 1000);
}
