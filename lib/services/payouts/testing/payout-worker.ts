import { createAppDeps } from "@/lib/deps/app-deps";
/**
 * A separate worker process for tests of payouts: processes waiting batches and sends the
 * payouts of one network, pass after pass, against the database and node its environment
 * names — as a second `npm start` worker would — until nothing is left to do.
 *
 *   PAYOUT_NETWORK=base DATABASE_URL=… GATEWAY_MASTER_KEY=… RPC_BASE=… tsx payout-worker.ts
 *
 * Prints a line `pass <n>` after each pass.
 */
import { loadConfig } from "@/lib/config/env";
import { createDb } from "@/lib/db/client";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { getChainSender } from "@/lib/chains/registry";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import type { NetworkId } from "@/lib/catalogue";
import { processPendingBatches } from "@/lib/jobs/handlers/process-batches";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { runWorker } from "@/lib/testing/run-worker";

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const db = createDb(config.databaseUrl!, { poolSize: 4 });
  const network = process.env.PAYOUT_NETWORK as NetworkId;
  await verifyChains(config, db);
  const sender = getChainSender(db, config, network);
  if (!sender) throw new Error(`no sender for ${network}`);
  const deps = createAppDeps(config, db, createSecretBox(Buffer.from(process.env.GATEWAY_MASTER_KEY!, "hex")));
  for (let pass = 1; ; pass++) {
    const batches = await processPendingBatches(deps);
    await sendPayouts(deps, network, sender);
    process.stdout.write(`pass ${pass}\n`);
    const open = await db.payout.count({ where: { network, status: { in: ["approved", "broadcasting", "sent"] } } });
    if (open === 0 && batches === 0) break;
  }
  await db.$disconnect();
}

runWorker(main);
