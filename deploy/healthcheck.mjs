// The container's HEALTHCHECK: GET /healthz on this process's own port — WORKER_PORT for
// `npm run worker`, else PORT (default 3000) for `npm start`. Exit 0 healthy, 1 unhealthy.
const port = process.env.WORKER_PORT || process.env.PORT || "3000";
try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
