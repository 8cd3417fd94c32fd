import { getHealth } from "@/lib/services/system/get-health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const health = await getHealth();
  return Response.json(health, { status: health.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
}
