import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createRouter, dispatch } from "@/lib/api/dispatch";
import type { ApiDeps } from "@/lib/api/deps";
import { OPERATIONS } from "@/lib/api/operations";
import { apiRequestFromNode, writeAnswer } from "@/lib/runtime/node-http";

/** What happens to a request on its way to the service: pass, a refusal in front of it, or a lost answer. */
export type Fault =
  /** Hand it to the service. */
  | "pass"
  /** The service handles it, then the connection drops before the answer leaves: the client cannot know it ran. */
  | "lose-answer"
  /** A 429 as the service's limiter answers it, before anything runs. */
  | { rateLimitedFor: number };

export interface ApiServer {
  baseUrl: string;
  /** `METHOD path` of every request received, in order. */
  received: string[];
  close(): Promise<void>;
}

/**
 * The real API over real HTTP on 127.0.0.1: every request goes through the dispatcher and the
 * operation table, as `npm start` serves them. `faultFor` decides, per request (0-based), whether
 * something between client and service misbehaves.
 */
export async function startApiServer(deps: ApiDeps, faultFor: (index: number, method: string, path: string) => Fault = () => "pass"): Promise<ApiServer> {
  const router = createRouter(OPERATIONS);
  const received: string[] = [];
  const sockets = new Set<Socket>();
  let origin = "";
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const request = apiRequestFromNode(incoming, origin);
      const path = request.pathname;
      const index = received.push(`${request.method} ${path}`) - 1;
      const fault = faultFor(index, request.method, path);
      if (typeof fault === "object") {
        outgoing.writeHead(429, { "content-type": "application/json", "retry-after": String(fault.rateLimitedFor) });
        outgoing.end(JSON.stringify({ state: 1, message: "Too many requests; retry after the interval in Retry-After." }));
        return;
      }
      const answer = await dispatch(request, { deps, router, clientIp: incoming.socket.remoteAddress ?? "127.0.0.1" });
      if (fault === "lose-answer") {
        incoming.socket.destroy();
        return;
      }
      writeAnswer(answer, outgoing);
    } catch (error) {
      outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end(String(error));
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: origin,
    received,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
