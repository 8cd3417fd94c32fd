import { getConfig, resetConfig, type GatewayConfig } from "@/lib/config/env";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { getDb } from "@/lib/db/client";
import { getSecretBox, refuseWalletSeedInThisProcess } from "@/lib/crypto/master-key";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { verifyMasterKey } from "@/lib/services/system/verify-master-key";
import { startBuiltinWorker, type RunningWorker } from "@/lib/jobs/worker";
import { log } from "@/lib/log";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import "@/lib/chains/real-chain-families";
import { createApiDeps } from "@/lib/api/deps";

export interface BootedService {
  config: GatewayConfig;
  startWorker(): void;
  stop(): Promise<void>;
}

/** Opens the database (embedded when DATABASE_URL is unset), migrates it and checks the master key. */
export async function bootService(): Promise<BootedService> {
  let embedded: EmbeddedDatabase | undefined;
  if (!getConfig().databaseUrl) {
    embedded = await startEmbeddedDatabase(getConfig().dataDir);
    process.env.DATABASE_URL = embedded.url;
    process.env.GATEWAY_EMBEDDED = "1";
    resetConfig();
    log.info("embedded database open", { dataDir: getConfig().dataDir });
  }
  const config = getConfig();
  // A web-only process never holds signing keys: every secret box it hands out refuses the seed,
  // and it is not given the seed's key, which would let a compromised web process open it anyway.
  if (config.worker === "off") {
    if (config.seedKey) throw new Error("GATEWAY_SEED_KEY is set on a process without the worker (GATEWAY_WORKER=off): give it only to processes that run the worker");
    refuseWalletSeedInThisProcess();
  }
  const applied = await migrateDatabase(config.databaseUrl!);
  if (applied.length > 0) log.info("migrations applied", { migrations: applied });
  const db = getDb();
  await verifyMasterKey(db, getSecretBox());
  // Where jobs run, the keys are made (first start) and their public record completed before any
  // request: web-only processes read addresses from that record and from the pools.
  if (config.worker !== "off") {
    // Opened once here, so a missing or wrong GATEWAY_SEED_KEY stops the start instead of the first payout.
    (await loadKeyMaterial(db, getSecretBox())).openSeed();
    log.info("wallet seed opened", { sealedUnder: config.seedKey ? "GATEWAY_SEED_KEY" : "the master key" });
  }
  // Real nodes are checked before any request: a production chain is refused in sandbox mode.
  await verifyChains(config, db);

  let worker: RunningWorker | undefined;
  return {
    config,
    startWorker() {
      // Its own collaborators: the bundled route code builds another set from its own module copies.
      if (config.worker === "builtin") worker = startBuiltinWorker(createApiDeps(config, db, getSecretBox()));
    },
    async stop() {
      await worker?.stop();
      await db.$disconnect();
      await embedded?.close();
    },
  };
}
