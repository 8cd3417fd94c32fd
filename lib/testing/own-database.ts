import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { scratchDatabase } from "@/lib/testing/scratch-database";

export interface OwnDatabase {
  url: string;
  db: Db;
  close(): Promise<void>;
}

/**
 * A migrated database of a test file's own, beside the run's shared one: on the same PostgreSQL
 * server, or another embedded database in the embedded pass. For tests that need service-wide
 * state of their own (the key material a recorded chain conversation was signed with).
 */
export async function createOwnDatabase(name: string): Promise<OwnDatabase> {
  if (inject("databaseKind") === "embedded") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gateway-${name}-`));
    const embedded = await startEmbeddedDatabase(dataDir);
    await migrateDatabase(embedded.url);
    const db = createDb(embedded.url, { poolSize: 4 });
    return {
      url: embedded.url,
      db,
      async close() {
        await db.$disconnect();
        await embedded.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const shared = new URL(inject("databaseUrl"));
  const databaseName = `${shared.pathname.slice(1)}_${name}`;
  const server = new URL(shared);
  server.pathname = "/postgres";
  const own = scratchDatabase(server.toString(), databaseName);
  await own.create();
  await migrateDatabase(own.url);
  const db = createDb(own.url, { poolSize: 4 });
  return {
    url: own.url,
    db,
    async close() {
      await db.$disconnect();
      await own.drop();
    },
  };
}

/**
 * A database of the calling test file's own for all its tests (created before, dropped after):
 * for tests whose passes are network-wide (a payout pass sends every approved payout of its
 * network) and must not meet other files' rows. Returns the database (read it inside tests).
 */
export function useOwnDatabasePerFile(name: string): () => OwnDatabase {
  let own: OwnDatabase | undefined;
  beforeAll(async () => {
    own = await createOwnDatabase(name);
  }, 120_000);
  afterAll(async () => {
    await own?.close();
  });
  return () => own!;
}
