import pg from "pg";

/** A database of one test file's or benchmark's own on a PostgreSQL server, created and dropped by name. */
export interface ScratchDatabase {
  url: string;
  /** Drops any leftover of an earlier run and creates it empty. */
  create(): Promise<void>;
  drop(): Promise<void>;
  query<T extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]>;
}

/** `name` on the server of `serverUrl` (any database of it serves to create and drop). */
export function scratchDatabase(serverUrl: string, name: string): ScratchDatabase {
  const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  const run = async <T extends pg.QueryResultRow>(connectionString: string, sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query<T>(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  const drop = async () => void (await run(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return {
    url,
    async create() {
      await drop();
      await run(serverUrl, `CREATE DATABASE ${name}`);
    },
    drop,
    query: (sql, values) => run(url, sql, values),
  };
}

/** Whether a PostgreSQL server answers at `serverUrl` within `timeoutMs`. */
export async function isPostgresReachable(serverUrl: string, timeoutMs = 3000): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
