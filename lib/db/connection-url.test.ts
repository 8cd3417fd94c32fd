import { describe, expect, it } from "vitest";
import { allowsNamedStatements, embeddedConnectionUrl } from "./connection-url";

describe("allowsNamedStatements", () => {
  it("allows them on a PostgreSQL server's own connections", () => {
    expect(allowsNamedStatements("postgresql://postgres@127.0.0.1:5432/test")).toBe(true);
    expect(allowsNamedStatements("postgres://app:secret@db.internal/gateway?sslmode=require&application_name=gateway")).toBe(true);
  });

  it("refuses them on the embedded database, whose connections share one session", () => {
    expect(allowsNamedStatements(embeddedConnectionUrl(54321))).toBe(false);
  });

  it("refuses them through PgBouncer in transaction mode (pgbouncer=true)", () => {
    expect(allowsNamedStatements("postgresql://app@pgbouncer:6432/gateway?pgbouncer=true")).toBe(false);
    expect(allowsNamedStatements("postgresql://app@pgbouncer:6432/gateway?pgbouncer=false")).toBe(true);
  });

  it("refuses them on a string that is not a URL", () => {
    expect(allowsNamedStatements("host=/var/run/postgresql dbname=gateway")).toBe(false);
  });
});
