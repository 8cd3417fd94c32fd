import { getConfig } from "@/lib/config/env";
import { createDb, type Db } from "@/lib/db/client";
import { findRunningEmbeddedDatabase, startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { getSecretBox } from "@/lib/crypto/master-key";
import { verifyMasterKey } from "@/lib/services/system/verify-master-key";

/**
 * The database the operator CLI works on: DATABASE_URL; else the embedded database the
 * running service serves; else the embedded files opened by the CLI itself.
 */
export async function openCliDatabase(): Promise<{ db: Db; close(): Promise<void> }> {
  const config = getConfig();
  let url = config.databaseUrl ?? findRunningEmbeddedDatabase(config.dataDir);
  const embedded = url ? undefined : await startEmbeddedDatabase(config.dataDir);
  url ??= embedded!.url;
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
