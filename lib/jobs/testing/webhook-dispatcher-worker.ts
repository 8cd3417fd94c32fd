/**
 * A separate webhook dispatcher process for tests: runs the built-in worker's dispatcher for some
 * merchants, as a second `npm run worker` would, until the stop file exists.
 *
 *   DISPATCH_MERCHANT_IDS=<id>,<id> DISPATCH_STOP_FILE=/tmp/stop DATABASE_URL=… GATEWAY_MASTER_KEY=… tsx webhook-dispatcher-worker.ts
 *
 * Prints a JSON line `{"ready": true}` once it runs, and at the end `{"sent": n}`: how many
 * attempts it sent.
 */
import fs from "node:fs";
import { loadConfig } from "@/lib/config/env";
import { createDb } from "@/lib/db/client";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { startWebhookDispatcher } from "@/lib/jobs/webhook-dispatcher";
import { sendWebhookRequest } from "@/lib/webhooks/send-request";
import { runWorker } from "@/lib/testing/run-worker";

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const db = createDb(config.databaseUrl!, { poolSize: 4 });
  const stopFile = process.env.DISPATCH_STOP_FILE!;
  let sent = 0;
  const dispatcher = startWebhookDispatcher(
    {
      db,
      secretBox: createSecretBox(Buffer.from(process.env.GATEWAY_MASTER_KEY!, "hex")),
      now: () => new Date(),
      send: (...request) => {
        sent++;
        return sendWebhookRequest(...request);
      },
      sendOptions: { allowLoopback: true, timeoutMs: 5000 },
    },
    { concurrency: 8, perMerchantConcurrency: 4, pollIntervalMs: 10, onlyMerchantIds: process.env.DISPATCH_MERCHANT_IDS!.split(",") },
  );
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  while (!fs.existsSync(stopFile)) await new Promise((resolve) => setTimeout(resolve, 20));
  await dispatcher.stop();
  process.stdout.write(`${JSON.stringify({ sent })}\n`);
  await db.$disconnect();
}

runWorker(main);
