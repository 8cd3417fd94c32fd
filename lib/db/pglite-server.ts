import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Serves one PGlite database to several PostgreSQL client connections.
 *
 * PGlite is a single backend session, so the connections take turns. A turn is a whole
 * protocol exchange — everything up to a Sync, a simple Query or a Terminate — so one
 * client's Parse/Bind/Execute can never interleave with another's; and a client that leaves
 * a transaction open keeps its turn until the transaction ends (or it disconnects, which rolls
 * it back). That gives the clients real transactions and row-lock semantics for free: only one
 * transaction runs at a time.
 */
export interface PgliteServer {
  port: number;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/** A FIFO mutex: the holder of a turn, and who waits for it. */
function createTurns() {
  let tail = Promise.resolve();
  return {
    async acquire(): Promise<() => void> {
      let release!: () => void;
      const previous = tail;
      tail = new Promise<void>((resolve) => (release = resolve));
      await previous;
      return release;
    },
  };
}

export async function servePglite(db: PGlite, options: { host?: string; port?: number } = {}): Promise<PgliteServer> {
  await db.waitReady;
  const turns = createTurns();
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let isStarted = false;
    let pending: Buffer[] = [];
    let chain = Promise.resolve();
    let heldTurn: (() => void) | null = null;

    const runUnit = async (messages: Buffer[]) => {
      heldTurn ??= await turns.acquire();
      try {
        for (const message of messages) {
          await db.execProtocolRawStream(new Uint8Array(message), {
            onRawData: (data) => {
              if (!socket.destroyed) socket.write(data);
            },
          });
        }
      } finally {
        if (!db.isInTransaction()) {
          heldTurn();
          heldTurn = null;
        }
      }
    };

    const enqueue = (messages: Buffer[]) => {
      chain = chain.then(() => runUnit(messages)).catch(() => {
        socket.destroy();
      });
    };

    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!isStarted) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write("N"); // no encryption on the loopback socket
            continue;
          }
          if (code === CANCEL_REQUEST) {
            socket.end();
            return;
          }
          isStarted = true;
          enqueue([Buffer.from(message)]);
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1) + 1;
        if (buffer.length < length) return;
        const message = Buffer.from(buffer.subarray(0, length));
        buffer = buffer.subarray(length);
        const type = String.fromCharCode(message[0]);
        if (type === "X") {
          socket.end();
          return;
        }
        pending.push(message);
        if (type === "S" || type === "Q") {
          enqueue(pending);
          pending = [];
        }
      }
    });

    socket.on("close", () => {
      sockets.delete(socket);
      // A client that vanished inside a transaction: roll it back, then let the others go on.
      chain = chain.then(async () => {
        if (!heldTurn) return;
        try {
          if (db.isInTransaction()) await db.exec("ROLLBACK");
        } finally {
          heldTurn();
          heldTurn = null;
        }
      });
    });
    socket.on("error", () => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
