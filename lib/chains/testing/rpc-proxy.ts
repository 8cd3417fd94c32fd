import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does with one JSON-RPC request. */
export type ProxyAction =
  /** Pass it to the node and return the node's answer. */
  | { kind: "forward" }
  /** Pass it to the node, then cut the connection instead of answering (the answer is lost). */
  | { kind: "forward-then-drop" }
  /** Pass it to the node and never answer (the caller dies waiting, after the node took it). */
  | { kind: "forward-then-hang" }
  /** Cut the connection without passing it on. */
  | { kind: "drop" }
  /** Hold it without ever answering (a node that hangs, or a caller killed while waiting). */
  | { kind: "hang" }
  /** Answer with this result instead of asking the node. */
  | { kind: "answer"; result: unknown }
  /** Answer with this JSON-RPC error instead of asking the node (a node that lags or refuses). */
  | { kind: "error"; code: number; message: string };

export interface RpcProxy {
  /** The node's URL with the proxy's host and port (credentials kept). */
  url: string;
  /** Methods seen, in order (a batch as its methods joined by commas). */
  methods: string[];
  stop(): Promise<void>;
}

/**
 * A JSON-RPC proxy in front of a local test node (anvil, litecoind) that can lose requests or
 * answers, hang, or lie about the chain: for tests of crashes and lost answers at exactly the
 * broadcast. Credentials in the node's URL (litecoind's) pass through.
 */
export async function startRpcProxy(targetUrl: string, decide: (method: string, params: unknown[]) => ProxyAction): Promise<RpcProxy> {
  const target = new URL(targetUrl);
  const methods: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const parsed = JSON.parse(body.toString("utf8")) as { id: number; method: string; params?: unknown[] } | { method: string }[];
      const method = Array.isArray(parsed) ? parsed.map((call) => call.method).join(",") : parsed.method;
      methods.push(method);
      const action = decide(method, Array.isArray(parsed) ? [] : (parsed.params ?? []));
      if (action.kind === "hang") return;
      if (action.kind === "drop") return void request.socket.destroy();
      if (action.kind === "answer" || action.kind === "error") {
        const id = Array.isArray(parsed) ? null : parsed.id;
        const answer = action.kind === "answer" ? { result: action.result } : { error: { code: action.code, message: action.message } };
        return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, ...answer }));
      }
      const upstream = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: { ...request.headers, host: target.host } },
        (answer) => {
          const answerChunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => answerChunks.push(chunk));
          answer.on("end", () => {
            if (action.kind === "forward-then-drop") return void request.socket.destroy();
            if (action.kind === "forward-then-hang") return;
            response.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(answerChunks));
          });
        },
      );
      upstream.on("error", () => request.socket.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(targetUrl);
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: url.toString().replace(/\/$/, ""),
    methods,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
