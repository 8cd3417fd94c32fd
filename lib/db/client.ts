import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { getConfig } from "@/lib/config/env";

export type Db = PrismaClient;
/** A Prisma client bound to an open interactive transaction. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Opens a Prisma client on a PostgreSQL server (a real one, or the embedded one's socket). */
export function createDb(connectionString: string, options: { poolSize?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString, max: options.poolSize ?? 10 });
  return new PrismaClient({ adapter });
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
