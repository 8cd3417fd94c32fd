import { connectionPoolOf, hasConnectionPool, type Db, type Tx } from "./client";

/**
 * Runs one statement on the client's connection pool, outside any transaction, without Prisma's
 * raw-query path, which costs about 85 µs of CPU per statement where the driver alone takes 20
 * (measured with a one-row SELECT at 20 concurrent callers). For the few statements every request
 * sends: the rows come as node-postgres parses them — int4 as numbers, int8 and numeric as
 * strings, timestamptz as Date, text[] as string[] — so a statement casts what it returns.
 */
export async function queryDirect<Row>(db: Db, text: string, values: readonly unknown[]): Promise<Row[]> {
  const result = await connectionPoolOf(db).query(text, values as unknown[]);
  return result.rows as Row[];
}

/**
 * queryDirect for a client made by createDb, Prisma's raw path inside a transaction. The two
 * parse some types differently (numeric: string or Decimal, int8: string or bigint): a statement
 * sent this way returns only types both give alike, or its caller accepts either.
 */
export async function queryRows<Row>(client: Db | Tx, text: string, values: readonly unknown[]): Promise<Row[]> {
  if (hasConnectionPool(client)) return queryDirect<Row>(client, text, values);
  return client.$queryRawUnsafe<Row[]>(text, ...values);
}
