/**
 * A separate worker process for tests of outgoing transfers: runs sweep passes of one network
 * against the database and node its environment names, as a second `npm start` worker would.
 *
 *   SWEEP_NETWORK=arbitrum SWEEP_PASSES=3 DATABASE_URL=… GATEWAY_MASTER_KEY=… RPC_ARBITRUM=… tsx sweep-worker.ts
 *
 * Prints one JSON line with what each pass did.
 */
import { loadConfig } from "@/lib/config/env";
import { createDb } from "@/lib/db/client";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { getChainSender } from "@/lib/chains/registry";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import type { NetworkId } from "@/lib/catalogue";
import { sweepNetwork } from "@/lib/jobs/handlers/sweep-deposits";
import { runWorker } from "@/lib/testing/run-worker";

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const db = createDb(config.databaseUrl!, { poolSize: 4 });
  const network = process.env.SWEEP_NETWORK as NetworkId;
  const passes = Number(process.env.SWEEP_PASSES ?? 1);
  await verifyChains(config, db);
  const sender = getChainSender(db, config, network);
  if (!sender) throw new Error(`no sender for ${network}`);
  const deps = { db, config, secretBox: createSecretBox(Buffer.from(process.env.GATEWAY_MASTER_KEY!, "hex")), now: () => new Date() };
  const results = [];
  for (let pass = 0; pass < passes; pass++) results.push(await sweepNetwork(deps, network, sender));
  process.stdout.write(`${JSON.stringify({ pid: process.pid, results })}\n`);
  await db.$disconnect();
}

runWorker(main);
