/**
 * What a connection URL says about the session behind each connection. Kept apart from
 * embedded.ts, which loads PGlite, so the client can ask without loading it.
 */

/** The embedded database's connections name themselves so (see embeddedConnectionUrl). */
const EMBEDDED_APPLICATION_NAME = "gateway-embedded";

/** The URL of the embedded database served on a loopback port. */
export function embeddedConnectionUrl(port: number): string {
  return `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable&application_name=${EMBEDDED_APPLICATION_NAME}`;
}

/**
 * Whether statements may be prepared under a name on each connection of this URL. Not on the
 * embedded database, whose connections all share its one session (two would prepare the same
 * name there), nor through PgBouncer in transaction mode (Prisma's `pgbouncer=true`), where
 * consecutive statements of one connection may reach different server sessions.
 */
export function allowsNamedStatements(connectionString: string): boolean {
  let params: URLSearchParams;
  try {
    params = new URL(connectionString).searchParams;
  } catch {
    return false; // Not a URL the driver can use either; no cache is worth a guess.
  }
  return params.get("application_name") !== EMBEDDED_APPLICATION_NAME && params.get("pgbouncer") !== "true";
}
