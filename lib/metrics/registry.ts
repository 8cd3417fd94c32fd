import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { registerRpcEndpointMetrics } from "./rpc-endpoint-metrics";
import { registerStateGauges } from "./state-gauges";
import { createServiceStateReader, DEFAULT_STATE_READ_OPTIONS, type MetricsSource, type ServiceStateReader, type StateReadOptions } from "./service-state";

/** How a finished webhook attempt ended: delivered, failed with a retry to come, or failed for the last time. */
export type WebhookAttemptOutcome = "delivered" | "failed" | "dead";

/** The service's Prometheus metrics: one registry per process. */
export interface GatewayMetrics {
  registry: Registry;
  apiRequests: Counter<"operation" | "method" | "status" | "code">;
  apiRequestDuration: Histogram<"operation" | "method">;
  webhookAttempts: Counter<"outcome">;
  /** Where the scrape-time gauges read the service's state; null leaves them without samples. */
  useStateSource(source: MetricsSource | null, options?: Partial<StateReadOptions>): void;
}

/** A fresh set of metrics on its own registry (the process-wide one is getGatewayMetrics()). */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const collectFailures = new Counter<"part">({
    name: "gateway_metrics_collect_failures_total",
    help: "Scrape-time reads of the service's state that failed (tables, hot_wallets, ledger_audit).",
    labelNames: ["part"],
    registers: [registry],
  });
  let reader: ServiceStateReader | null = null;
  registerStateGauges(registry, () => reader);
  registerRpcEndpointMetrics(registry);
  return {
    registry,
    apiRequests: new Counter({
      name: "gateway_api_requests_total",
      help: "API requests answered, by operation (the path template), method, HTTP status and error code (ok on success).",
      labelNames: ["operation", "method", "status", "code"],
      registers: [registry],
    }),
    apiRequestDuration: new Histogram({
      name: "gateway_api_request_duration_seconds",
      help: "Time to answer an API request, by operation (the path template) and method.",
      labelNames: ["operation", "method"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: "gateway_webhook_attempts_total",
      help: "Webhook delivery attempts finished, by outcome: delivered, failed (a retry follows), dead (the last attempt failed).",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    useStateSource(source, options = {}) {
      reader = source ? createServiceStateReader(source, { ...DEFAULT_STATE_READ_OPTIONS, ...options }, (part) => collectFailures.inc({ part })) : null;
    },
  };
}

const METRICS_KEY = Symbol.for("gateway.metrics");
const globalForMetrics = globalThis as unknown as { [METRICS_KEY]?: GatewayMetrics };

/**
 * The process-wide metrics. Kept on globalThis because Next evaluates route modules as copies
 * separate from the custom server's: the API route counts requests in its copy, the server
 * serves /metrics from its own, and both must reach the same registry.
 */
export function getGatewayMetrics(): GatewayMetrics {
  globalForMetrics[METRICS_KEY] ??= createGatewayMetrics();
  return globalForMetrics[METRICS_KEY];
}
