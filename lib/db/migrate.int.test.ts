import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import pg from "pg";
import { migrateDatabase, readMigrations } from "./migrate";

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  it("records every migration as Prisma does, with the SHA-256 checksum of its file", async () => {
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name`,
    );
    const files = readMigrations();
    expect(files.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.migration_name)).toEqual(files.map((file) => file.name));
    for (const [i, row] of rows.entries()) {
      expect(row.checksum).toBe(files[i].checksum);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    expect(fs.readFileSync(path.join(process.cwd(), "prisma/migrations/migration_lock.toml"), "utf8")).toContain('provider = "postgresql"');
  });

  it("applies nothing the second time", async () => {
    expect(await migrateDatabase(inject("databaseUrl"))).toEqual([]);
  });

  it("refuses to continue when an applied migration's file was changed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-migrations-"));
    for (const migration of readMigrations()) {
      fs.mkdirSync(path.join(dir, migration.name));
      fs.writeFileSync(path.join(dir, migration.name, "migration.sql"), migration.sql + "\n-- edited\n");
    }
    await expect(migrateDatabase(inject("databaseUrl"), dir)).rejects.toThrow(/was modified after it was applied/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
