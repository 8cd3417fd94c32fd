// Liveness: answers without touching anything, for load balancers and as the benchmark's baseline route.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return new Response("ok", { headers: { "content-type": "text/plain", "cache-control": "no-store" } });
}
