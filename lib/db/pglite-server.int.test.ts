import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePglite, type PgliteServer } from "./pglite-server";

let db: PGlite;
let server: PgliteServer;
const url = () => `postgresql://postgres:postgres@127.0.0.1:${server.port}/postgres?sslmode=disable`;

beforeAll(async () => {
  db = await PGlite.create();
  await db.exec("CREATE TABLE items (id int primary key, label text)");
  server = await servePglite(db);
});
afterAll(async () => {
  await server.close();
  await db.close();
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url() });
  await client.connect();
  return client;
}

describe("the embedded database's socket server", () => {
  it("keeps concurrent extended-protocol queries of many connections apart", async () => {
    const pool = new pg.Pool({ connectionString: url(), max: 8 });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? pool.query<{ v: string }>("SELECT $1::text || $2::text AS v", [`a${i}`, "b"]).then((r) => r.rows[0].v === `a${i}b`)
          : pool.query<{ v: number }>("SELECT $1::int + $2::int + $3::int AS v", [i, 1, 2]).then((r) => r.rows[0].v === i + 3),
      ),
    );
    await pool.end();
    expect(results.every(Boolean)).toBe(true);
  });

  it("runs one transaction at a time: another connection waits, then sees the commit", async () => {
    const a = await connect();
    const b = await connect();
    await a.query("BEGIN");
    await a.query("INSERT INTO items VALUES (1, 'from a')");
    const read = b.query<{ count: string }>("SELECT count(*) FROM items WHERE id = 1");
    let isReadDone = false;
    void read.then(() => (isReadDone = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(isReadDone).toBe(false);
    await a.query("COMMIT");
    expect((await read).rows[0].count).toBe("1");
    await a.end();
    await b.end();
  });

  it("rolls back the transaction of a client that disconnects in the middle", async () => {
    const a = await connect();
    await a.query("BEGIN");
    await a.query("INSERT INTO items VALUES (2, 'lost')");
    a.on("error", () => undefined); // the client notices its own cut connection
    a.connection.stream.destroy();
    const b = await connect();
    const { rows } = await b.query("SELECT * FROM items WHERE id = 2");
    expect(rows).toEqual([]);
    await b.end();
  });
});
