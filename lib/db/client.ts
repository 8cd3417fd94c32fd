import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { getConfig } from "@/lib/config/env";
import { allowsNamedStatements } from "./connection-url";

export type Db = PrismaClient;
/** A Prisma client bound to an open interactive transaction. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** On globalThis like the client itself (see getDb): a copy of this module must find the pool of a client another copy made. */
const globalForPools = globalThis as unknown as { gatewayConnectionPools?: WeakMap<Db, ConnectionPool> };
const connectionPools = (globalForPools.gatewayConnectionPools ??= new WeakMap<Db, ConnectionPool>());

/** The driver's pool under a client, and whether its connections may keep statements prepared by name. */
export interface ConnectionPool {
  pool: pg.Pool;
  allowsNamedStatements: boolean;
}

/**
 * Opens a Prisma client on a PostgreSQL server (a real one, or the embedded one's socket). Its
 * connections are a pool of the driver's own, which lib/db/direct-query.ts also sends the hot
 * statements of the request path to.
 */
export function createDb(connectionString: string, options: { poolSize?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString, max: options.poolSize ?? 10 });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  connectionPools.set(db, { pool, allowsNamedStatements: allowsNamedStatements(connectionString) });
  return db;
}

/** Whether the client is one made by createDb (not a transaction's), with a pool of its own. */
export function hasConnectionPool(client: Db | Tx): client is Db {
  return connectionPools.has(client as Db);
}

/** The driver's pool under a client made by createDb. */
export function connectionPoolOf(db: Db): ConnectionPool {
  const pool = connectionPools.get(db);
  if (!pool) throw new Error("not a client made by createDb");
  return pool;
}

const globalForDb = globalThis as unknown as { gatewayDb?: { url: string; db: Db } };

/**
 * The process-wide client. Kept on globalThis because Next may evaluate this module
 * more than once (route bundles), and each copy must share one connection pool.
 */
export function getDb(): Db {
  const url = getConfig().databaseUrl;
  if (!url) {
    throw new Error("No database: set DATABASE_URL, or start the service with `npm start` to use the embedded database");
  }
  if (globalForDb.gatewayDb?.url !== url) {
    globalForDb.gatewayDb = { url, db: createDb(url) };
  }
  return globalForDb.gatewayDb.db;
}
