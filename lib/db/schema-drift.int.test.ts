import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import pg from "pg";
import { shapeFromDatabase, shapeFromPrismaSchema } from "./schema-drift";

// A failure here means prisma/migrations and prisma/schema.prisma disagree: write the
// migration that brings the database to the schema (or fix the schema).
describe("schema drift", () => {
  it("the migrated database has exactly the tables, columns, keys and indexes of schema.prisma", async () => {
    const expected = shapeFromPrismaSchema();
    const actual = await shapeFromDatabase(inject("databaseUrl"));
    expect(Object.keys(actual.tables).sort()).toEqual(Object.keys(expected.tables).sort());
    for (const [name, table] of Object.entries(expected.tables)) {
      expect(actual.tables[name], `table ${name}`).toEqual(table);
    }
  });

  it("notices a drift: a column the schema lacks, a nullability change and a missing index", async () => {
    const expected = shapeFromPrismaSchema();
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      await client.query(`ALTER TABLE merchants ADD COLUMN drift_probe TEXT`);
      await client.query(`ALTER TABLE api_keys ALTER COLUMN kind DROP NOT NULL`);
      await client.query(`DROP INDEX idempotency_records_created_at_idx`);
      const drifted = await shapeFromDatabase(inject("databaseUrl"));
      expect(drifted.tables.merchants.columns.drift_probe).toEqual({ type: "text", nullable: true });
      expect(drifted.tables.merchants).not.toEqual(expected.tables.merchants);
      expect(drifted.tables.api_keys.columns.kind.nullable).toBe(true);
      expect(drifted.tables.api_keys).not.toEqual(expected.tables.api_keys);
      expect(drifted.tables.idempotency_records).not.toEqual(expected.tables.idempotency_records);
    } finally {
      await client.query(`ALTER TABLE merchants DROP COLUMN IF EXISTS drift_probe`);
      await client.query(`ALTER TABLE api_keys ALTER COLUMN kind SET NOT NULL`);
      await client.query(`CREATE INDEX IF NOT EXISTS idempotency_records_created_at_idx ON idempotency_records(created_at)`);
      await client.end();
    }
    expect(await shapeFromDatabase(inject("databaseUrl"))).toEqual(expected);
  });
});
