import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
}

/** What the receiver does with the n-th request (0-based): answer a status, or hang. */
export type ReceiverBehaviour = (index: number, request: ReceivedRequest) => number | "hang";

export interface WebhookReceiver {
  url: string;
  received: ReceivedRequest[];
  setBehaviour(behaviour: ReceiverBehaviour): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 standing in for a merchant's webhook endpoint. */
export async function startWebhookReceiver(behaviour: ReceiverBehaviour = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  let current = behaviour;
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { path: request.url ?? "/", headers: request.headers, rawBody: Buffer.concat(chunks).toString("utf8") };
      const index = received.length;
      received.push(entry);
      const outcome = current(index, entry);
      if (outcome === "hang") return; // never answers; the sender's deadline must end it
      response.writeHead(outcome, { "content-type": "text/plain" });
      response.end("ok");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    setBehaviour: (next) => (current = next),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
