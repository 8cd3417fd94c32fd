import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { embeddedConnectionUrl } from "./connection-url";
import { servePglite } from "./pglite-server";

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) kept under the data
 * directory and served on a loopback socket, so the service, the worker and the operator
 * CLI all speak plain PostgreSQL to it through the same driver as to a real server.
 *
 * PGlite is single-process: the process that opens the files publishes its socket in
 * `embedded-db.json`, and other processes (the CLI while the service runs) connect there.
 */
export interface EmbeddedDatabase {
  url: string;
  close(): Promise<void>;
}

const STATE_FILE = "embedded-db.json";

interface EmbeddedState {
  pid: number;
  port: number;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The socket URL of an embedded database another live process is serving, if any. */
export function findRunningEmbeddedDatabase(dataDir: string): string | undefined {
  const file = path.join(dataDir, STATE_FILE);
  if (!fs.existsSync(file)) return undefined;
  try {
    const state = JSON.parse(fs.readFileSync(file, "utf8")) as EmbeddedState;
    if (state.pid !== process.pid && isProcessAlive(state.pid)) return embeddedConnectionUrl(state.port);
  } catch {
    // An unreadable state file is treated as no running database.
  }
  return undefined;
}

/** Opens (creating if needed) the embedded database under dataDir and serves it on 127.0.0.1. */
export async function startEmbeddedDatabase(dataDir: string, options: { port?: number } = {}): Promise<EmbeddedDatabase> {
  const running = findRunningEmbeddedDatabase(dataDir);
  if (running) {
    throw new Error(`The embedded database in ${dataDir} is already open by another process (${running})`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(path.join(dataDir, "pgdata"));
  const server = await servePglite(db, { port: options.port });
  const port = server.port;
  const stateFile = path.join(dataDir, STATE_FILE);
  fs.writeFileSync(stateFile, JSON.stringify({ pid: process.pid, port } satisfies EmbeddedState));
  let closed = false;
  return {
    url: embeddedConnectionUrl(port),
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      await db.close();
      fs.rmSync(stateFile, { force: true });
    },
  };
}
