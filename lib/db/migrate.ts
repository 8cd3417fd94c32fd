import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

/** Prisma's own lock key for migrations, so our runner and `prisma migrate deploy` never run at once. */
const MIGRATION_ADVISORY_LOCK = 72707369;

export interface Migration {
  name: string;
  sql: string;
  /** SHA-256 hex of the file, as Prisma records it in _prisma_migrations.checksum. */
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

// The bookkeeping table exactly as Prisma creates it, so `prisma migrate deploy`
// sees these migrations as applied.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies every migration not yet recorded, each in its own transaction, under Prisma's
 * advisory lock. Refuses to run when an applied migration's file has changed since.
 * Returns the names of the migrations it applied.
 */
export async function migrateDatabase(connectionString: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_ADVISORY_LOCK]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const applied = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const appliedByName = new Map(applied.rows.map((row) => [row.migration_name, row]));
    const done: string[] = [];
    for (const migration of readMigrations(dir)) {
      const previous = appliedByName.get(migration.name);
      if (previous) {
        if (!previous.finished_at) {
          throw new Error(`Migration ${migration.name} started earlier but did not finish; inspect the database before retrying`);
        }
        if (previous.checksum !== migration.checksum) {
          throw new Error(`Migration ${migration.name} was modified after it was applied`);
        }
        continue;
      }
      const id = randomUUID();
      await client.query("BEGIN");
      try {
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
          [id, migration.checksum, migration.name],
        );
        await client.query(migration.sql);
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_ADVISORY_LOCK]).catch(() => undefined);
    await client.end();
  }
}
