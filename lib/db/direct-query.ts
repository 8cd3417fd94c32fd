import { createHash } from "node:crypto";
import { connectionPoolOf, hasConnectionPool, type Db, type Tx } from "./client";

/**
 * The name a statement is prepared under: from its text, so every copy of this module (Next's
 * bundles load their own beside the service's) gives one text the same name on the shared pool.
 * The texts sent here are a handful of fixed ones (a coalesced batch's size is a parameter, not
 * part of its text), so the map stays small.
 */
const statementNames = new Map<string, string>();

function statementNameOf(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `gateway_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`));
  return name;
}

/**
 * Runs one statement on the client's connection pool, outside any transaction, without Prisma's
 * raw-query path, which costs about 85 µs of CPU per statement where the driver alone takes 20
 * (measured with a one-row SELECT at 20 concurrent callers). For the few statements every request
 * sends: the rows come as node-postgres parses them — int4 as numbers, int8 and numeric as
 * strings, timestamptz as Date, text[] as string[] — so a statement casts what it returns.
 *
 * Each connection prepares a statement once under its name and then only binds and executes it:
 * PostgreSQL had spent about a third of its time on invoice creation parsing and planning these
 * statements again for every batch. Not where connections share a session (see allowsNamedStatements).
 */
export async function queryDirect<Row>(db: Db, text: string, values: readonly unknown[]): Promise<Row[]> {
  const { pool, allowsNamedStatements } = connectionPoolOf(db);
  const result = await pool.query(allowsNamedStatements ? { name: statementNameOf(text), text, values: values as unknown[] } : { text, values: values as unknown[] });
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
