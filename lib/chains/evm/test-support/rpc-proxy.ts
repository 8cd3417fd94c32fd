import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does with one JSON-RPC request. */
export type ProxyAction =
  /** Pass it to the node and return the node's answer. */
  | { kind: "forward" }
  /** Pass it to the node, then cut the connection instead of answering (the answer is lost). */
  | { kind: "forward-then-drop" }
  /** Cut the connection without passing it on. */
  | { kind: "drop" }
  /** Answer with this result instead of asking the node. */
  | { kind: "answer"; result: unknown };

export interface RpcProxy {
  url: string;
  /** Methods seen, in order. */
  methods: string[];
  stop(): Promise<void>;
}

/** A JSON-RPC proxy in front of a node that can lose requests or answers, or lie about the chain. */
export async function startRpcProxy(targetUrl: string, decide: (method: string, params: unknown[]) => ProxyAction): Promise<RpcProxy> {
  const methods: string[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", async () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      methods.push(method);
      const action = decide(method, params ?? []);
      if (action.kind === "drop") return void request.socket.destroy();
      if (action.kind === "answer") {
        return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: action.result }));
      }
      const answer = await fetch(targetUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
      const text = await answer.text();
      if (action.kind === "forward-then-drop") return void request.socket.destroy();
      response.writeHead(answer.status, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    methods,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
