import http from "node:http";
import { ensurePrismaClient } from "./prepare";

/**
 * `npm run worker`: background jobs only — no API, no pages, no Next build. It boots as
 * `npm start` does on a PostgreSQL server (migrations under Prisma's advisory lock, so workers
 * and web processes may start together; the master key check), runs the built-in worker, and
 * answers GET /healthz (and /metrics) on WORKER_PORT when set. SIGTERM lets the attempts and
 * job runs in flight finish, then exits.
 */
async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    // The embedded database lives inside the `npm start` process: another process cannot share it.
    throw new Error("npm run worker needs DATABASE_URL: a worker process shares a PostgreSQL database with the web processes (GATEWAY_WORKER=off npm start)");
  }
  // This process exists to run the built-in worker, whatever a shared environment file says.
  process.env.GATEWAY_WORKER = "builtin";
  (process.env as Record<string, string>).NODE_ENV = "production";
  ensurePrismaClient();

  // Imported after generation: these modules load the generated Prisma client.
  const { bootService } = await import("./boot");
  const { getHealth } = await import("@/lib/services/system/get-health");
  const { startMetricsEndpoint } = await import("@/lib/metrics/serve-metrics");

  const service = await bootService();
  const metrics = await startMetricsEndpoint(service.config);
  const healthServer = service.config.workerPort === undefined ? undefined : await listenForHealth(service.config.workerPort, metrics.handleOnServicePort, getHealth);
  service.startWorker();
  const healthNote = healthServer ? `; health: http://localhost:${service.config.workerPort}/healthz` : "";
  console.log(`Gateway worker ready (built-in worker, no HTTP API)${healthNote}`);
  if (metrics.port !== undefined) console.log(`Metrics: http://localhost:${metrics.port}/metrics`);

  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    console.log(`Stopping (${signal}): finishing the attempts and job runs in flight…`);
    // Health answers until the work is done, then the listener goes: an orchestrator sees the process leave, not fail.
    await service.stop();
    if (healthServer) {
      healthServer.close();
      healthServer.closeAllConnections();
    }
    await metrics.close();
    console.log("Gateway worker stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

/** GET /healthz as the web processes answer it (200 once the database answers, else 503), and /metrics. */
async function listenForHealth(
  port: number,
  handleMetrics: (request: http.IncomingMessage, response: http.ServerResponse) => boolean,
  getHealth: () => Promise<{ ok: boolean }>,
): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (handleMetrics(request, response)) return;
    const path = (request.url ?? "/").split("?")[0];
    if (request.method !== "GET" || (path !== "/healthz" && path !== "/ping")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    if (path === "/ping") {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("ok");
      return;
    }
    getHealth().then(
      (health) => response.writeHead(health.ok ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify({ ...health, role: "worker" })),
      () => response.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ ok: false, role: "worker" })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, resolve);
  });
  return server;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause) console.error(error.cause);
  process.exit(1);
});
