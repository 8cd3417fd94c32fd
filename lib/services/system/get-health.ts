import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { listNetworkStatuses, type NetworkStatus } from "@/lib/chains/network-sources";
import { log } from "@/lib/log";

export interface Health {
  ok: boolean;
  database: "ok" | "unreachable";
  sandbox: boolean;
  networks: NetworkStatus[];
}

/** spec: operator contract §1, §3 — `ok` once requests can be served, and each network's source. */
export async function getHealth(): Promise<Health> {
  const config = getConfig();
  let database: Health["database"] = "ok";
  try {
    await getDb().$queryRaw`SELECT 1`;
  } catch (error) {
    log.warn("health check: database unreachable", { error });
    database = "unreachable";
  }
  return { ok: database === "ok", database, sandbox: config.sandbox, networks: listNetworkStatuses(config) };
}
