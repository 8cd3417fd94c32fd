import { randomBytes } from "node:crypto";
import http from "node:http";
import { ensureNextBuild, ensurePrismaClient } from "./prepare";

/**
 * `npm start`: the whole service in one process — embedded database (unless DATABASE_URL),
 * migrations, the API and pages, and the built-in worker.
 */
async function main(): Promise<void> {
  if (!process.env.DATABASE_URL && process.env.GATEWAY_SANDBOX === undefined) {
    // spec: operator contract §1 — sandbox chains are on by default with the embedded database.
    process.env.GATEWAY_SANDBOX = "1";
  }
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  // React and Next pick their production code paths from NODE_ENV.
  (process.env as Record<string, string>).NODE_ENV = "production";
  ensurePrismaClient();
  ensureNextBuild();

  // Imported after generation: these modules load the generated Prisma client.
  const { bootService } = await import("./boot");
  const { default: next } = await import("next");
  const { PEER_ADDRESS_HEADER, PEER_TOKEN_ENV, PEER_TOKEN_HEADER } = await import("@/lib/api/client-ip");
  const { startMetricsEndpoint } = await import("@/lib/metrics/serve-metrics");
  const { serveApiRequest, isApiPath } = await import("./serve-api");
  const { createHostedPageServer } = await import("./serve-hosted-page");
  const { loadHostedAssets } = await import("./hosted-assets");
  const peerToken = randomBytes(16).toString("hex");
  process.env[PEER_TOKEN_ENV] = peerToken;

  const service = await bootService();
  // Signed requests find their key in memory while change notices reach this process. The
  // embedded database is one session shared by every connection, so it cannot deliver them.
  const { startApiKeyCache } = await import("@/lib/auth/api-key-cache");
  if (process.env.GATEWAY_EMBEDDED !== "1") {
    const { getDb } = await import("@/lib/db/client");
    startApiKeyCache({ connectionString: service.config.databaseUrl!, db: getDb() });
  }
  const metrics = await startMetricsEndpoint(service.config);
  const app = next({ dev: false, dir: process.cwd(), hostname: "0.0.0.0", port: service.config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const hostedPages = createHostedPageServer(loadHostedAssets());
  const server = http.createServer((request, response) => {
    // Scrapes are answered here, before Next: the registry is this process's (lib/metrics/registry.ts).
    if (metrics.handleOnServicePort(request, response)) return;
    // Only the socket's own peer address is believed; a client cannot set this header.
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
    request.headers[PEER_TOKEN_HEADER] = peerToken;
    // The signed API is answered here, before Next's router: the same handler and operation
    // table as app/v1's route (which serves it where this server does not run, e.g. Vercel).
    if (isApiPath(request.url)) void serveApiRequest(request, response);
    // The payment page likewise: rendered here with a small script of its own (app/(hosted)/pay/[id]
    // is the same page where this server does not run).
    else if (!hostedPages.handle(request, response)) void handle(request, response);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(service.config.port, resolve);
  });
  service.startWorker();
  console.log(`Gateway ready: ${service.config.publicBaseUrl} (listening on port ${service.config.port})`);
  if (metrics.port !== undefined) console.log(`Metrics: http://localhost:${metrics.port}/metrics`);

  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    console.log(`Stopping (${signal})…`);
    server.close();
    server.closeAllConnections();
    await metrics.close();
    await service.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  // Killed, npm (or whatever started this process) would leave it running as an orphan that
  // keeps the port and the database: it stops with its parent.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop("its parent process exited");
  }, 250).unref();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause) console.error(error.cause);
  process.exit(1);
});
