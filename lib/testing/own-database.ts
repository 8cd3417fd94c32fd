import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";

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
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${databaseName}`);
  const own = new URL(shared);
  own.pathname = `/${databaseName}`;
  await migrateDatabase(own.toString());
  const db = createDb(own.toString(), { poolSize: 4 });
  return {
    url: own.toString(),
    db,
    async close() {
      await db.$disconnect();
      await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    },
  };
}
