import http from "node:http";
import type net from "node:net";

/** A local HTTP server for tests that need a misbehaving or fake node. */
export interface TestHttpServer {
  port: number;
  /** Every request body received, in order. */
  bodies: string[];
  /** The Authorization header of every request, in order. */
  authorizations: (string | undefined)[];
  /** Closes the server and drops open connections (a hanging answer included). */
  close(): Promise<void>;
}

/** Starts a server on a free port of 127.0.0.1; the handler gets the request body as text. */
export async function startTestHttpServer(handler: (body: string, response: http.ServerResponse, request: http.IncomingMessage) => unknown): Promise<TestHttpServer> {
  const bodies: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      bodies.push(body);
      authorizations.push(request.headers.authorization);
      void handler(body, response, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    bodies,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fake node answering JSON-RPC calls from raw JSON text per method, so that tests can write
 * decimals exactly as a node does (`"value": 1.23456789`). Batches are answered call by call.
 */
export async function startFakeNode(answers: Record<string, (params: unknown[]) => string>): Promise<TestHttpServer> {
  return startTestHttpServer((body, response) => {
    const parsed: unknown = JSON.parse(body);
    const calls = (Array.isArray(parsed) ? parsed : [parsed]) as { id: number; method: string; params: unknown[] }[];
    const envelopes = calls.map((call) => {
      const answer = answers[call.method];
      if (!answer) return `{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":${call.id}}`;
      return `{"result":${answer(call.params)},"error":null,"id":${call.id}}`;
    });
    response.writeHead(200, { "content-type": "application/json" });
    response.end(Array.isArray(parsed) ? `[${envelopes.join(",")}]` : envelopes[0]);
  });
}
