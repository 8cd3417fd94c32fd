import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { embeddedConnectionUrl } from "./connection-url";
import { servePglite } from "./pglite-server";

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) kept under the data
 * directory and served on a loopback socket, so the service, the worker and the operator
 * CLI all speak plain PostgreSQL to it through the same driver as to a real server.
 *
 * PGlite is single-process. The process that opens the files holds a lock the operating system
 * releases with it, however it ends (kill -9 included; a zombie holds none): a listening Unix
 * socket, which also tells other processes (the CLI while the service runs) where the database
 * is served. `embedded-db.json` records the same for people and tools; it is never trusted.
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

/** The files are open in another live process. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(dataDir: string, where: string) {
    super(`The embedded database in ${dataDir} is already open by another process (${where})`);
    this.name = "EmbeddedDatabaseInUseError";
  }
}

/** How long a start waits for a process that is going away (a restart right after a kill) to release the files. */
const DEFAULT_LOCK_WAIT_MS = 30_000;

/**
 * Where the lock of a data directory listens: on Linux a name in the abstract socket namespace
 * (nothing on disk to outlive the process), elsewhere a socket file in the directory.
 */
function lockAddress(dataDir: string): string {
  const directory = fs.realpathSync(dataDir);
  if (process.platform === "linux") return `\0gateway-embedded-db:${createHash("sha256").update(directory).digest("hex").slice(0, 40)}`;
  return path.join(directory, "embedded-db.lock");
}

/** What the lock's holder answers: where it serves the database. Undefined when nobody holds it. */
async function askLockHolder(address: string): Promise<EmbeddedState | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ path: address });
    let answer = "";
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("utf8")));
    socket.on("close", () => {
      try {
        resolve(JSON.parse(answer) as EmbeddedState);
      } catch {
        resolve(undefined);
      }
    });
    socket.on("error", () => resolve(undefined));
  });
}

/** Takes the lock, or returns null while another live process holds it. */
async function tryLock(address: string, state: () => EmbeddedState | undefined): Promise<net.Server | null> {
  const server = net.createServer((socket) => socket.end(JSON.stringify(state() ?? null)));
  const listen = () =>
    new Promise<NodeJS.ErrnoException | null>((resolve) => {
      server.once("error", (error: NodeJS.ErrnoException) => resolve(error));
      server.listen({ path: address }, () => resolve(null));
    });
  let error = await listen();
  // A socket file left by a process that died: nobody answers on it.
  if (error?.code === "EADDRINUSE" && !address.startsWith("\0") && (await askLockHolder(address)) === undefined) {
    fs.rmSync(address, { force: true });
    error = await listen();
  }
  if (!error) {
    server.unref();
    return server;
  }
  if (error.code === "EADDRINUSE") return null;
  throw error;
}

/** The socket URL of an embedded database another live process is serving, if any. */
export async function findRunningEmbeddedDatabase(dataDir: string): Promise<string | undefined> {
  if (!fs.existsSync(dataDir)) return undefined;
  const state = await askLockHolder(lockAddress(dataDir));
  return state && state.pid !== process.pid ? embeddedConnectionUrl(state.port) : undefined;
}

/**
 * Opens (creating if needed) the embedded database under dataDir and serves it on 127.0.0.1.
 * While another process holds the files it waits up to `lockWaitMs` (a restart right after a
 * crash or a kill finds the old process still going away), then refuses.
 */
export async function startEmbeddedDatabase(dataDir: string, options: { port?: number; lockWaitMs?: number } = {}): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const address = lockAddress(dataDir);
  let state: EmbeddedState | undefined;
  const deadline = Date.now() + (options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
  let lock = await tryLock(address, () => state);
  while (!lock) {
    if (Date.now() >= deadline) {
      const holder = await askLockHolder(address);
      const where = holder ? `process ${holder.pid}, ${embeddedConnectionUrl(holder.port)}` : "a process still starting";
      throw new EmbeddedDatabaseInUseError(dataDir, where);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    lock = await tryLock(address, () => state);
  }
  const heldLock = lock;
  const stateFile = path.join(dataDir, STATE_FILE);
  let db: PGlite | undefined;
  try {
    db = await PGlite.create(path.join(dataDir, "pgdata"));
    const server = await servePglite(db, { port: options.port });
    state = { pid: process.pid, port: server.port };
    fs.writeFileSync(stateFile, JSON.stringify(state));
    let closed = false;
    const openDb = db;
    return {
      url: embeddedConnectionUrl(server.port),
      async close() {
        if (closed) return;
        closed = true;
        await server.close();
        await openDb.close();
        fs.rmSync(stateFile, { force: true });
        await new Promise<void>((resolve) => heldLock.close(() => resolve()));
      },
    };
  } catch (error) {
    await db?.close().catch(() => undefined);
    await new Promise<void>((resolve) => heldLock.close(() => resolve()));
    throw error;
  }
}
