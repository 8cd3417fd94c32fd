/**
 * A web process as `GATEWAY_WORKER=off npm start` boots it, without the HTTP server: bootService,
 * then signed invoice creations through the process-wide collaborators the route handlers use, on
 * the networks WEB_NETWORKS names (JSON array of create bodies). Then it reaches for the seed on
 * purpose. Prints one JSON line: the answers' statuses, what the attempt threw, the seed's uses.
 *
 *   GATEWAY_WORKER=off WEB_PAYMENTS='[…]' MERCHANT_PUBLIC_ID=… MERCHANT_SECRET=… DATABASE_URL=… tsx web-only-process.ts
 */
import { bootService } from "@/lib/runtime/boot";
import { getApiDeps } from "@/lib/api/deps";
import { createRouter, dispatchFetch } from "@/lib/api/dispatch";
import { OPERATIONS } from "@/lib/api/operations";
import { signRequest } from "@/lib/api/signature";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { getSecretBox } from "@/lib/crypto/master-key";
import { countWalletSeedUses } from "@/lib/crypto/secret-box";
import { getDb } from "@/lib/db/client";
import { runWorker } from "@/lib/testing/run-worker";

async function main(): Promise<void> {
  const service = await bootService();
  const router = createRouter(OPERATIONS);
  const payments = JSON.parse(process.env.WEB_PAYMENTS!) as unknown[];
  const statuses = await Promise.all(
    payments.map(async (payment) => {
      const body = JSON.stringify(payment);
      const timestamp = String(Math.floor(Date.now() / 1000));
      const request = new Request("http://gateway.test/v1/payment", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-timestamp": timestamp,
          "x-public-id": process.env.MERCHANT_PUBLIC_ID!,
          "x-signature": signRequest(process.env.MERCHANT_SECRET!, timestamp, "POST", "/v1/payment", body),
        },
        body,
      });
      const response = await dispatchFetch(request, { deps: getApiDeps(), clientIp: "127.0.0.1", router });
      return response.status === 200 ? 200 : `${response.status} ${await response.text()}`;
    }),
  );
  const usesBeforeAttempt = countWalletSeedUses();
  let attempt = "opened";
  try {
    (await loadKeyMaterial(getDb(), getSecretBox())).openSeed();
  } catch (error) {
    attempt = (error as Error).name;
  }
  process.stdout.write(`${JSON.stringify({ statuses, usesBeforeAttempt, attempt, usesAfterAttempt: countWalletSeedUses() })}\n`);
  await service.stop();
}

runWorker(main);
