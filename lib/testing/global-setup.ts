import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: "postgresql" | "embedded";
  }
}

/** The server tests create their database on; trust auth on 127.0.0.1 as on CI. */
export const DEFAULT_TEST_SERVER_URL = "postgresql://postgres@127.0.0.1:5432/test";

let embedded: EmbeddedDatabase | undefined;
let dataDir: string | undefined;

/**
 * Creates a fresh, migrated database for the run: `gateway_test_<pid>` on the PostgreSQL
 * server of TEST_DATABASE_URL (default: the local server), or an embedded one in a temp dir
 * when GATEWAY_TEST_DATABASE=embedded.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.GATEWAY_TEST_DATABASE === "embedded") {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-test-db-"));
    embedded = await startEmbeddedDatabase(dataDir);
    await migrateDatabase(embedded.url);
    project.provide("databaseUrl", embedded.url);
    project.provide("databaseKind", "embedded");
    return async () => {
      await embedded?.close();
      fs.rmSync(dataDir!, { recursive: true, force: true });
    };
  }
  const serverUrl = new URL(process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_SERVER_URL);
  const databaseName = `gateway_test_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const testUrl = new URL(serverUrl);
  testUrl.pathname = `/${databaseName}`;
  await migrateDatabase(testUrl.toString());
  project.provide("databaseUrl", testUrl.toString());
  project.provide("databaseKind", "postgresql");
  return async () => {
    const cleanup = new pg.Client({ connectionString: serverUrl.toString() });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await cleanup.end();
  };
}
