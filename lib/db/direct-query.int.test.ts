import { afterAll, describe, expect, inject, it } from "vitest";
import { connectionPoolOf, createDb, type Db } from "./client";
import { queryDirect } from "./direct-query";

const clients: Db[] = [];

/** A client of its own with this many connections, so the test knows what every connection holds. */
function openClient(poolSize: number): Db {
  const db = createDb(inject("databaseUrl"), { poolSize });
  clients.push(db);
  return db;
}
afterAll(() => Promise.all(clients.map((db) => db.$disconnect())));

const STATEMENT = "SELECT $1::int * 2 AS doubled";

describe("queryDirect", () => {
  it("answers many concurrent callers over every connection of the pool, and again after a failed statement", async () => {
    const db = openClient(6);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => queryDirect<{ doubled: number }>(db, STATEMENT, [i])));
    expect(answers.map((rows) => rows[0].doubled)).toEqual(Array.from({ length: 200 }, (_, i) => i * 2));
    await expect(queryDirect(db, STATEMENT, ["not a number"])).rejects.toThrow(/invalid input syntax/);
    await expect(queryDirect(db, "SELECT FROM nowhere_at_all WHERE", [])).rejects.toThrow();
    expect((await queryDirect<{ doubled: number }>(db, STATEMENT, [21]))[0].doubled).toBe(42);
  });

  it("prepares each statement once per connection on a PostgreSQL server, and not on the embedded database", async () => {
    const db = openClient(1);
    for (let i = 0; i < 5; i++) await queryDirect(db, STATEMENT, [i]);
    const { pool, allowsNamedStatements } = connectionPoolOf(db);
    // Asked on the pool's one connection, through the driver's unnamed path.
    const prepared = (await pool.query("SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'gateway_%'")).rows as { name: string; statement: string }[];
    if (inject("databaseKind") === "embedded") {
      expect(allowsNamedStatements).toBe(false);
      expect(prepared).toEqual([]);
    } else {
      expect(allowsNamedStatements).toBe(true);
      expect(prepared).toEqual([{ name: expect.stringMatching(/^gateway_[0-9a-f]{32}$/), statement: STATEMENT }]);
    }
  });
});
