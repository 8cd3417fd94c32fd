import { createHash, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { GatewayConfig } from "@/lib/config/env";
import { getSecretBox } from "@/lib/crypto/master-key";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { getGatewayMetrics, type GatewayMetrics } from "./registry";
import type { MetricsSource, StateReadOptions } from "./service-state";

export const METRICS_PATH = "/metrics";

/**
 * Whether an Authorization header carries the bearer token. Both sides are hashed first, so the
 * constant-time comparison also hides the token's length. No token configured: every scrape may read.
 */
export function isAuthorizedScrape(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? "");
  if (!match) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}

/** Answers one request for the metrics: the Prometheus text format, after the token check. */
export async function answerMetricsRequest(request: IncomingMessage, response: ServerResponse, options: { token: string | undefined; metrics: GatewayMetrics }): Promise<void> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("method not allowed\n");
    return;
  }
  if (!isAuthorizedScrape(request.headers.authorization, options.token)) {
    response.writeHead(401, { "www-authenticate": 'Bearer realm="metrics"', "content-type": "text/plain; charset=utf-8" }).end("unauthorized\n");
    return;
  }
  try {
    const text = await options.metrics.registry.metrics();
    response.writeHead(200, { "content-type": options.metrics.registry.contentType, "cache-control": "no-store" });
    response.end(request.method === "HEAD" ? undefined : text);
  } catch (error) {
    log.error("metrics could not be rendered", { error });
    if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    response.end("metrics unavailable\n");
  }
}

function isMetricsPath(request: IncomingMessage): boolean {
  const url = request.url ?? "/";
  const end = url.indexOf("?");
  return (end === -1 ? url : url.slice(0, end)) === METRICS_PATH;
}

/**
 * Without a token, the public port shows metrics (volumes, balances owed) only to a scraper on this
 * machine: a loopback peer that is not a local reverse proxy relaying someone else's request.
 */
export function isLocalScrape(request: IncomingMessage): boolean {
  const peer = request.socket.remoteAddress ?? "";
  const isLoopback = peer === "::1" || peer.startsWith("127.") || peer.startsWith("::ffff:127.");
  const proxyHeaders = ["x-forwarded-for", "forwarded", "x-real-ip", "via", "x-forwarded-host", "x-forwarded-proto"];
  return isLoopback && proxyHeaders.every((name) => request.headers[name] === undefined);
}

export interface MetricsEndpoint {
  /**
   * For the service's own listener, before Next: answers /metrics when metrics are served on the
   * service's port (no METRICS_PORT) and returns true; returns false for every other request.
   */
  handleOnServicePort(request: IncomingMessage, response: ServerResponse): boolean;
  /** The separate listener's port (METRICS_PORT), when there is one. */
  port: number | undefined;
  /** The address it listens on: loopback without METRICS_TOKEN, every interface with one. */
  host: string | undefined;
  close(): Promise<void>;
}

export interface MetricsEndpointOptions {
  /** Where the gauges read the service's state; the process's database and secret box by default. */
  source?: MetricsSource;
  stateOptions?: Partial<StateReadOptions>;
  metrics?: GatewayMetrics;
}

/**
 * Serves the metrics for `npm start`: points the process-wide metrics at the service's state,
 * then serves /metrics either on the service's port or, with METRICS_PORT, on that port alone
 * (so the public listener never answers it). METRICS_TOKEN, when set, is required on both; without
 * it the service's port answers only local scrapes.
 */
export async function startMetricsEndpoint(config: Pick<GatewayConfig, "metrics" | "sandbox" | "rpcEndpoints">, options: MetricsEndpointOptions = {}): Promise<MetricsEndpoint> {
  const metrics = options.metrics ?? getGatewayMetrics();
  const source: MetricsSource = options.source ?? { db: getDb(), secretBox: getSecretBox(), config, now: () => new Date() };
  metrics.useStateSource(source, options.stateOptions);
  const serve = { token: config.metrics.token, metrics };

  if (config.metrics.port === undefined) {
    return {
      handleOnServicePort(request, response) {
        if (!isMetricsPath(request)) return false;
        if (serve.token === undefined && !isLocalScrape(request)) return false; // Next answers its 404
        void answerMetricsRequest(request, response, serve);
        return true;
      },
      port: undefined,
      host: undefined,
      async close() {},
    };
  }

  const server = http.createServer((request, response) => {
    if (isMetricsPath(request)) void answerMetricsRequest(request, response, serve);
    else response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
  });
  // Without a token anyone who reaches the port reads what the service holds and owes: only this machine may.
  const host = serve.token === undefined ? "127.0.0.1" : "::";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.metrics.port, host, resolve);
  });
  const address = server.address();
  return {
    handleOnServicePort: () => false,
    port: typeof address === "object" && address ? address.port : config.metrics.port,
    host: typeof address === "object" && address ? address.address : host,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
