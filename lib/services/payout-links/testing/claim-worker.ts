/**
 * A separate process for the crash test of payout-link claims: claims one link by its token, as
 * the public claim operation does (its two units in turn), against the database its environment names. Its rate source
 * never answers: the claim binds the address, prints `quoting` when it asks for the fee's rate
 * and waits there — where the test kills it, between the claim's two transactions.
 *
 *   CLAIM_TOKEN=… CLAIM_ADDRESS=… DATABASE_URL=… GATEWAY_MASTER_KEY=… tsx claim-worker.ts
 */
import { loadConfig } from "@/lib/config/env";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { createDb } from "@/lib/db/client";
import { createAppDeps } from "@/lib/deps/app-deps";
import { runUnit } from "@/lib/deps/unit-of-work";
import type { RateProvider } from "@/lib/rates/types";
import { beginPayoutLinkClaim, finishPayoutLinkClaim } from "@/lib/services/payout-links/claim-payout-link";
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
  const secretBox = createSecretBox(Buffer.from(process.env.GATEWAY_MASTER_KEY!, "hex"));
  // The box as given, whatever GATEWAY_WORKER says: the claim reads the gateway's own addresses.
  const deps = { ...createAppDeps(config, db, secretBox), secretBox, rates: silentRates };
  const begun = await runUnit(deps, beginPayoutLinkClaim, { token: process.env.CLAIM_TOKEN!, input: { address: process.env.CLAIM_ADDRESS! } });
  await runUnit(deps, finishPayoutLinkClaim, begun);
  throw new Error("the claim finished without a fee rate");
}

runWorker(main);
