import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { serveApiRequest } from "./serve-api";

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe("serving /v1 from the node server", () => {
  it("answers the API's internal.error envelope when a request cannot even be read", async () => {
    server = http.createServer((request, response) => {
      // A target that no URL parser accepts: the failure happens before the dispatcher is reached.
      request.url = "http://[";
      void serveApiRequest(request, response);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/v1/ping`, { method: "POST", body: "{}" });
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ error: { code: "internal.error", message: expect.any(String) } });
  });
});
