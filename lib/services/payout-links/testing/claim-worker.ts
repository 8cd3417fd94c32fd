/**
 * A separate process for the crash test of payout-link claims: claims one link by its token, as
 * the public claim operation does, against the database its environment names. Its rate source
 * never answers: the claim binds the address, prints `quoting` when it asks for the fee's rate
 * and waits there — where the test kills it, between the claim's two transactions.
 *
 *   CLAIM_TOKEN=… CLAIM_ADDRESS=… DATABASE_URL=… GATEWAY_MASTER_KEY=… tsx claim-worker.ts
 */
import { loadConfig } from "@/lib/config/env";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { createDb } from "@/lib/db/client";
import type { RateProvider } from "@/lib/rates/types";
import { claimPayoutLink } from "@/lib/services/payout-links/claim-payout-link";
import { runWorker } from "@/lib/testing/run-worker";

const silentRates: RateProvider = {
  name: "silent",
  isOffline: true,
  async fetchUsdPrices() {
    process.stdout.write("quoting\n");
    return new Promise(() => {});
  },
};

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const db = createDb(config.databaseUrl!, { poolSize: 2 });
  const deps = { db, config, secretBox: createSecretBox(Buffer.from(process.env.GATEWAY_MASTER_KEY!, "hex")), rates: silentRates, now: () => new Date() };
  await claimPayoutLink(deps, process.env.CLAIM_TOKEN!, { address: process.env.CLAIM_ADDRESS! });
  throw new Error("the claim finished without a fee rate");
}

runWorker(main);
