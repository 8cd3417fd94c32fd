import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendWebhookRequest } from "./send-request";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A receiver that counts its connections; `answer` decides per request on a connection (1-based). */
async function startReceiver(answer: (requestOnConnection: number, socket: Socket, response: http.ServerResponse) => void) {
  const requestsBySocket = new Map<Socket, number>();
  let connections = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const count = (requestsBySocket.get(request.socket) ?? 0) + 1;
      requestsBySocket.set(request.socket, count);
      answer(count, request.socket, response);
    });
  });
  server.on("connection", () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}/hooks`, connections: () => connections };
}

const OPTIONS = { allowLoopback: true, timeoutMs: 2000 };
const HEADERS = { "content-type": "application/json" };

describe("sendWebhookRequest", () => {
  it("sends consecutive deliveries to a receiver over one kept-alive connection", async () => {
    const receiver = await startReceiver((_n, _socket, response) => response.writeHead(200).end("ok"));
    for (let i = 0; i < 3; i++) {
      expect(await sendWebhookRequest(receiver.url, "{}", HEADERS, OPTIONS)).toMatchObject({ isDelivered: true, statusCode: 200 });
    }
    expect(receiver.connections()).toBe(1);
  });

  it("sends once more on a new connection when the receiver drops a kept-alive one as it is reused", async () => {
    // The receiver closes every connection on its second request, without answering.
    const receiver = await startReceiver((n, socket, response) => (n === 1 ? response.writeHead(204).end() : socket.destroy()));
    expect(await sendWebhookRequest(receiver.url, "{}", HEADERS, OPTIONS)).toMatchObject({ isDelivered: true, statusCode: 204 });
    expect(await sendWebhookRequest(receiver.url, "{}", HEADERS, OPTIONS)).toMatchObject({ isDelivered: true, statusCode: 204 });
    expect(receiver.connections()).toBe(2);
  });

  it("fails an attempt whose fresh connection is dropped: a resend happens only on a reused one", async () => {
    const receiver = await startReceiver((_n, socket) => socket.destroy());
    expect(await sendWebhookRequest(receiver.url, "{}", HEADERS, OPTIONS)).toMatchObject({ isDelivered: false, error: "network error: ECONNRESET" });
    expect(receiver.connections()).toBe(1);
  });

  it("refuses a host that resolves to loopback unless loopback is allowed, on every send", async () => {
    const receiver = await startReceiver((_n, _socket, response) => response.writeHead(200).end());
    const url = `http://localhost:${receiver.port}/hooks`;
    expect(await sendWebhookRequest(url, "{}", HEADERS, { ...OPTIONS, allowLoopback: false })).toMatchObject({ isDelivered: false, error: expect.stringMatching(/^refused: /) });
    expect(await sendWebhookRequest(url, "{}", HEADERS, OPTIONS)).toMatchObject({ isDelivered: true });
    // The host's answer is reused now, and the rule still applies to it.
    expect(await sendWebhookRequest(url, "{}", HEADERS, { ...OPTIONS, allowLoopback: false })).toMatchObject({ isDelivered: false, error: expect.stringMatching(/^refused: /) });
  });
});
