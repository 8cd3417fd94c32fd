import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { withEndpointDiscipline } from "./real-chains";
import { createRpcEndpointPool } from "./rpc-endpoints";
import type { ChainSender } from "./types";

/** A local HTTP endpoint whose behaviour the test sets: answer, refuse as a node does, fail as a proxy does, or vanish. */
interface TestEndpoint {
  url: string;
  mode: "answer" | "node-error-500" | "unavailable-503" | "hang";
  /** What `answer` returns as the JSON-RPC result. */
  result: unknown;
  seen: { path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

const open: TestEndpoint[] = [];

async function startEndpoint(result: unknown = "ok", credentials = ""): Promise<TestEndpoint> {
  const endpoint: TestEndpoint = { url: "", mode: "answer", result, seen: [], close: async () => undefined };
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      endpoint.seen.push({ path: request.url ?? "", authorization: request.headers.authorization });
      if (endpoint.mode === "hang") return;
      if (endpoint.mode === "unavailable-503") return void response.writeHead(503, { "content-type": "text/html" }).end("<h1>Service Unavailable</h1>");
      if (endpoint.mode === "node-error-500") return void response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ result: null, error: { code: -5, message: "No such transaction" }, id: 1 }));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: endpoint.result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  endpoint.url = `http://${credentials}127.0.0.1:${port}`;
  endpoint.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  open.push(endpoint);
  return endpoint;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((endpoint) => endpoint.close()));
});

async function call(fetchFunction: (input: string, init?: RequestInit) => Promise<Response>, url: string, path = ""): Promise<{ status: number; body: unknown }> {
  const response = await fetchFunction(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "probe", params: [] }), signal: AbortSignal.timeout(2_000) });
  return { status: response.status, body: await response.json() };
}

describe("an RPC endpoint pool", () => {
  it("asks the first endpoint while it answers, and the next when it refuses connections or answers 503 without a node behind", async () => {
    const first = await startEndpoint("from first");
    const second = await startEndpoint("from second");
    const pool = createRpcEndpointPool("ethereum", [first.url, second.url]);

    expect((await call(pool.fetch, pool.primaryUrl)).body).toMatchObject({ result: "from first" });
    expect(second.seen).toHaveLength(0);

    first.mode = "unavailable-503";
    expect((await call(pool.fetch, pool.primaryUrl)).body).toMatchObject({ result: "from second" });
    await first.close();
    expect((await call(pool.fetch, pool.primaryUrl)).body).toMatchObject({ result: "from second" });

    const [firstHealth, secondHealth] = pool.health();
    expect(firstHealth).toMatchObject({ isUp: false, failures: 1, consecutiveFailures: 1, lastError: "HTTP 503" });
    expect(secondHealth).toMatchObject({ isUp: true, failures: 0, requests: 2 });
    // Labels name position and host only.
    expect(firstHealth.label).toMatch(/^1:127\.0\.0\.1:\d+$/);
  });

  it("takes a node's refusal as its answer, even with HTTP 500 (bitcoind), and asks no other endpoint", async () => {
    const first = await startEndpoint();
    const second = await startEndpoint("from second");
    first.mode = "node-error-500";
    const pool = createRpcEndpointPool("litecoin", [first.url, second.url]);
    const answer = await call(pool.fetch, pool.primaryUrl);
    expect(answer).toMatchObject({ status: 500, body: { error: { code: -5 } } });
    expect(second.seen).toHaveLength(0);
    expect(pool.health()[0]).toMatchObject({ isUp: true, failures: 0 });
  });

  it("goes back to the first endpoint once its cool-down has passed", async () => {
    let clock = 1_000_000;
    const first = await startEndpoint("from first");
    const second = await startEndpoint("from second");
    const pool = createRpcEndpointPool("ethereum", [first.url, second.url], { cooldownMs: 1_000, now: () => clock });
    first.mode = "unavailable-503";
    expect((await call(pool.fetch, pool.primaryUrl)).body).toMatchObject({ result: "from second" });
    first.mode = "answer";
    expect((await call(pool.fetch, pool.primaryUrl)).body).toMatchObject({ result: "from second" });
    clock += 1_001;
    expect((await call(pool.fetch, pool.primaryUrl)).body).toMatchObject({ result: "from first" });
    expect(pool.health()[0]).toMatchObject({ isUp: true, consecutiveFailures: 0 });
  });

  it("answers the last endpoint's failure when none answers", async () => {
    const first = await startEndpoint();
    const second = await startEndpoint();
    first.mode = "unavailable-503";
    second.mode = "unavailable-503";
    const pool = createRpcEndpointPool("ethereum", [first.url, second.url]);
    expect((await pool.fetch(pool.primaryUrl, { method: "POST", body: "{}" })).status).toBe(503);
    await first.close();
    await second.close();
    await expect(pool.fetch(pool.primaryUrl, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("routes paths and each endpoint's own credentials (from its URL) onto the endpoint it asks", async () => {
    const first = await startEndpoint("first", "alice:secret@");
    const second = await startEndpoint("second", "bob:other@");
    const pool = createRpcEndpointPool("tron", [first.url, second.url]);
    // The client strips the credentials itself and sends them as a header (the UTXO client does).
    const bareFirst = first.url.replace("alice:secret@", "");
    const aliceHeader = `Basic ${Buffer.from("alice:secret").toString("base64")}`;
    await pool.fetch(`${bareFirst}/wallet/getnowblock`, { method: "POST", headers: { authorization: aliceHeader }, body: "{}" });
    first.mode = "unavailable-503";
    await pool.fetch(`${bareFirst}/wallet/getnowblock`, { method: "POST", headers: { authorization: aliceHeader }, body: "{}" });
    expect(first.seen.map((request) => request.path)).toEqual(["/wallet/getnowblock", "/wallet/getnowblock"]);
    expect(first.seen[0].authorization).toBe(aliceHeader);
    expect(second.seen).toEqual([{ path: "/wallet/getnowblock", authorization: `Basic ${Buffer.from("bob:other").toString("base64")}` }]);
    expect(pool.health().map((health) => health.label).join(" ")).not.toMatch(/alice|bob|secret/);
  });

  it("routes a request addressed to a secondary's own URL (a client built to check that endpoint) through the pool, with its credentials", async () => {
    const first = await startEndpoint("first");
    const second = await startEndpoint("second", "bob:other@");
    const pool = createRpcEndpointPool("litecoin", [first.url, second.url]);
    expect((await pool.pinnedTo(1, () => call(pool.fetch, second.url, "/wallet"))).body).toMatchObject({ result: "second" });
    expect(second.seen).toEqual([{ path: "/wallet", authorization: `Basic ${Buffer.from("bob:other").toString("base64")}` }]);
    expect(first.seen).toHaveLength(0);
  });

  it("keeps pinned work on one endpoint: a failure there is the work's failure, not a move to another backend", async () => {
    const first = await startEndpoint("from first");
    const second = await startEndpoint("from second");
    const pool = createRpcEndpointPool("ethereum", [first.url, second.url]);
    const answers: unknown[] = [];
    await expect(
      pool.pinned(async () => {
        answers.push((await call(pool.fetch, pool.primaryUrl)).body);
        first.mode = "unavailable-503";
        answers.push((await pool.fetch(pool.primaryUrl, { method: "POST", body: "{}" })).status);
        throw new Error("the second read was not an answer");
      }),
    ).rejects.toThrow("the second read was not an answer");
    expect(answers).toEqual([{ jsonrpc: "2.0", id: 1, result: "from first" }, 503]);
    expect(second.seen).toHaveLength(0);
  });
});

describe("a sender over several endpoints", () => {
  /** A sender whose verdicts are what its endpoint says: the real families read the chain the same way, through the pool. */
  function senderReading(pool: ReturnType<typeof createRpcEndpointPool>): ChainSender {
    const read = async () => ((await call(pool.fetch, pool.primaryUrl)).body as { result: unknown }).result;
    return {
      getTransaction: async () => ({ status: (await read()) === "landed" ? "confirmed" : "unknown", confirmations: 0 }),
      canStillLand: async () => (await read()) !== "dead",
    } as unknown as ChainSender;
  }

  it("calls a transfer dead only when a second backend agrees; one that cannot answer leaves it waiting", async () => {
    const lagging = await startEndpoint("dead");
    const healthy = await startEndpoint("alive");
    const pool = createRpcEndpointPool("ethereum", [lagging.url, healthy.url]);
    const sender = withEndpointDiscipline(senderReading(pool), pool);
    const signed = { txid: "0xabc", consumes: {} };
    const from = { address: "0x0000000000000000000000000000000000000001" };

    expect(await sender.canStillLand(signed, from)).toBe(true);
    expect(lagging.seen).toHaveLength(1);
    expect(healthy.seen).toHaveLength(1);

    healthy.result = "dead";
    expect(await sender.canStillLand(signed, from)).toBe(false);

    healthy.mode = "hang";
    await healthy.close();
    expect(await sender.canStillLand(signed, from)).toBe(true);
  });

  it("leaves a sender over one endpoint as it is", async () => {
    const only = await startEndpoint("dead");
    const pool = createRpcEndpointPool("ethereum", [only.url]);
    const plain = senderReading(pool);
    expect(withEndpointDiscipline(plain, pool)).toBe(plain);
  });
});
