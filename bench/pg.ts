import pg from "pg";
import { percentile, type LoadResult } from "./load";

export interface SingleInsertFigure extends LoadResult {
  /** The server's durability settings the figure was measured under, e.g. "fsync on, synchronous_commit on". */
  settings: string;
}

const SCRATCH_TABLE = "bench_single_insert";

/**
 * PostgreSQL's own ceiling for what invoice creation does at its core: `concurrency` connections of
 * the service's driver (node `pg`), each committing one single-row INSERT at a time (autocommit), with
 * the server's fsync and synchronous_commit as configured. The table is logged, so every commit waits
 * for its WAL flush as an invoice's does.
 */
export async function measureSingleInsertRate(
  databaseUrl: string,
  options: { concurrency: number; seconds: number; warmupSeconds: number },
): Promise<SingleInsertFigure> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const setting = async (name: string) => (await admin.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
  const settings = `PostgreSQL ${await setting("server_version")}, fsync ${await setting("fsync")}, synchronous_commit ${await setting("synchronous_commit")}`;
  await admin.query(`DROP TABLE IF EXISTS ${SCRATCH_TABLE}`);
  await admin.query(`CREATE TABLE ${SCRATCH_TABLE} (id bigserial PRIMARY KEY, merchant_id uuid NOT NULL, amount numeric(78, 0) NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  const clients = Array.from({ length: options.concurrency }, () => new pg.Client({ connectionString: databaseUrl }));
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const latencies: number[] = [];
    let errors = 0;
    const warmupEnd = Date.now() + options.warmupSeconds * 1000;
    const end = warmupEnd + options.seconds * 1000;
    const insertLoop = async (client: pg.Client) => {
      while (Date.now() < end) {
        const started = performance.now();
        let ok = true;
        try {
          await client.query(`INSERT INTO ${SCRATCH_TABLE} (merchant_id, amount) VALUES (gen_random_uuid(), $1)`, ["25000000"]);
        } catch {
          ok = false;
        }
        const elapsed = performance.now() - started;
        if (Date.now() > warmupEnd) {
          if (ok) latencies.push(elapsed);
          else errors++;
        }
      }
    };
    await Promise.all(clients.map(insertLoop));
    latencies.sort((a, b) => a - b);
    return {
      label: `PostgreSQL single-row INSERT, ${options.concurrency} connections`,
      requests: latencies.length,
      errors,
      seconds: options.seconds,
      requestsPerSecond: latencies.length / options.seconds,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      settings,
    };
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await admin.query(`DROP TABLE IF EXISTS ${SCRATCH_TABLE}`);
    await admin.end();
  }
}
