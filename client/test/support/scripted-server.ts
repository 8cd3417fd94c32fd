import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ScriptedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body bytes exactly as received. */
  body: Buffer;
}

/** What the server does with a request: answer, drop the connection without answering, or never answer. */
export type ScriptedAction = { status: number; headers?: Record<string, string>; body?: unknown } | "drop" | "hang";

export interface ScriptedServer {
  baseUrl: string;
  received: ScriptedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that answers the n-th request (0-based) as `script` says:
 * what a client's retries meet in the wild (429, 503, dropped connections, silence).
 */
export async function startScriptedServer(script: (index: number, request: ScriptedRequest) => ScriptedAction): Promise<ScriptedServer> {
  const received: ScriptedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry: ScriptedRequest = { method: request.method ?? "", url: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks) };
      const index = received.length;
      received.push(entry);
      const action = script(index, entry);
      if (action === "hang") return;
      if (action === "drop") {
        request.socket.destroy();
        return;
      }
      const text = action.body === undefined ? "" : typeof action.body === "string" ? action.body : JSON.stringify(action.body);
      response.writeHead(action.status, { "content-type": "application/json", "x-request-id": `req_${index}`, ...action.headers });
      response.end(text);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A success in the standard envelope. */
export function ok(result: unknown, headers: Record<string, string> = {}): ScriptedAction {
  return { status: 200, headers, body: { state: 0, result } };
}

/** A refusal in the API's error body. */
export function refuse(status: number, code: string, headers: Record<string, string> = {}): ScriptedAction {
  return { status, headers, body: { error: { code, message: `refused: ${code}` } } };
}

/** The spec's 429: `{state: 1, message}` and Retry-After. */
export function rateLimited(retryAfterSeconds: number): ScriptedAction {
  return { status: 429, headers: { "retry-after": String(retryAfterSeconds) }, body: { state: 1, message: "Too many requests" } };
}
