import { getConfig } from "@/lib/config/env";
import { createDb, type Db } from "@/lib/db/client";
import { EmbeddedDatabaseInUseError, findRunningEmbeddedDatabase, startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { getSecretBox } from "@/lib/crypto/master-key";
import { verifyMasterKey } from "@/lib/services/system/verify-master-key";

/**
 * The database the operator CLI works on: DATABASE_URL; else the embedded database the
 * running service serves; else the embedded files opened by the CLI itself.
 */
export async function openCliDatabase(): Promise<{ db: Db; close(): Promise<void> }> {
  const config = getConfig();
  let url = config.databaseUrl;
  let embedded: EmbeddedDatabase | undefined;
  // The service's database if it serves one (once it is past starting), else the files themselves.
  for (const deadline = Date.now() + 30_000; !url; ) {
    url = await findRunningEmbeddedDatabase(config.dataDir);
    if (url) break;
    try {
      embedded = await startEmbeddedDatabase(config.dataDir, { lockWaitMs: 0 });
      url = embedded.url;
    } catch (error) {
      if (!(error instanceof EmbeddedDatabaseInUseError) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await migrateDatabase(url);
  const db = createDb(url, { poolSize: 2 });
  await verifyMasterKey(db, getSecretBox());
  return {
    db,
    async close() {
      await db.$disconnect();
      await embedded?.close();
    },
  };
}

/** Runs `work` on the CLI's database and closes it afterwards, whatever happens. */
export async function withCliDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openCliDatabase();
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}
