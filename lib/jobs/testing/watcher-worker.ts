/**
 * A separate worker process for tests: runs the watcher of some sandbox networks, the expiry
 * job and the maturity job in a loop, as a second `npm start` worker would, until its time is up.
 *
 *   WORKER_NETWORKS=tron,bsc WORKER_SECONDS=10 WORKER_STOP_FILE=/tmp/stop DATABASE_URL=… GATEWAY_MASTER_KEY=… tsx watcher-worker.ts
 *
 * It stops when its time is up or once the stop file exists.
 * Prints a JSON line `{"ready": true}` once connected, and at the end one with how many passes
 * ran and which failed.
 */
import fs from "node:fs";
import { loadConfig } from "@/lib/config/env";
import { createDb } from "@/lib/db/client";
import { createSandboxAdapter } from "@/lib/chains/sandbox/sandbox-chain";
import type { NetworkId } from "@/lib/catalogue";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { expireDueInvoices } from "@/lib/jobs/handlers/expire-invoices";
import { matureDueLots } from "@/lib/jobs/handlers/mature-lots";
import { runWorker } from "@/lib/testing/run-worker";

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const db = createDb(config.databaseUrl!, { poolSize: 4 });
  const networks = (process.env.WORKER_NETWORKS ?? "").split(",").filter(Boolean) as NetworkId[];
  const deadline = Date.now() + Number(process.env.WORKER_SECONDS ?? 5) * 1000;
  const stopFile = process.env.WORKER_STOP_FILE;
  const isStopped = () => Date.now() >= deadline || (stopFile !== undefined && fs.existsSync(stopFile));
  const deps = { db, config, now: () => new Date() };
  let passes = 0;
  const errors: string[] = [];
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  while (!isStopped()) {
    for (const network of networks) {
      await scanNetwork(deps, createSandboxAdapter(db, network)).catch((error: unknown) => errors.push(`scan ${network}: ${String(error)}`));
    }
    await expireDueInvoices(deps).catch((error: unknown) => errors.push(`expire: ${String(error)}`));
    await matureDueLots(db, new Date()).catch((error: unknown) => errors.push(`mature: ${String(error)}`));
    passes++;
  }
  process.stdout.write(`${JSON.stringify({ passes, errors })}\n`);
  await db.$disconnect();
}

runWorker(main);
