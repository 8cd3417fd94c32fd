import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ChainError } from "@/lib/chains/types";
import { createEvmAdapter } from "@/lib/chains/evm/evm-adapter";
import { createEvmSender } from "@/lib/chains/evm/evm-sender";
import { devAccount, findFreePort } from "@/lib/chains/evm/testing/anvil";

/**
 * Broken endpoints, each on its own path of one local server. Except on /hang, eth_chainId is
 * answered correctly, so the failure hits the call that reads data, not the chain id check.
 * /garbage       200 with a body that is not JSON
 * /html          200 text/html error page of a proxy
 * /shape         JSON-RPC answers whose result has the wrong shape
 * /empty         JSON-RPC answers without result or error
 * /http-500      500 with an empty body
 * /http-429      429 rate limit
 * /hang          accepts the request and never answers
 * /missing-block a chain of 6 blocks where block 3 is missing (a lagging node)
 * /moved-log     a token log whose block hash differs from the block read (reorganisation mid-scan)
 */
let server: http.Server;
let baseUrl: string;
let closedPortUrl: string;

const ANVIL_CHAIN_ID_HEX = "0x7a69";
const USDT_ETHEREUM = "0xdac17f958d2ee523a2206206994597c13d831ec7";

function blockAt(height: number, hashByte = "11") {
  return { number: `0x${height.toString(16)}`, hash: `0x${hashByte.repeat(31)}${height.toString(16).padStart(2, "0")}`, transactions: [] };
}

/** The answer of the data-serving paths to one JSON-RPC request; undefined means "answer nothing". */
function answerFor(path: string, method: string, params: unknown[]): unknown {
  if (path === "/missing-block" || path === "/moved-log") {
    if (method === "eth_blockNumber") return "0x5";
    if (method === "eth_getBlockByNumber") {
      const height = params[0] === "latest" ? 5 : Number(params[0]);
      return path === "/missing-block" && height === 3 ? null : blockAt(height);
    }
    if (method === "eth_getLogs") {
      const range = params[0] as { fromBlock: string; toBlock: string };
      if (path === "/missing-block" || Number(range.fromBlock) > 2 || Number(range.toBlock) < 2) return [];
      return [
        {
          address: USDT_ETHEREUM,
          topics: [
            "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
            `0x${"0".repeat(24)}${"12".repeat(20)}`,
            `0x${"0".repeat(24)}${"34".repeat(20)}`,
          ],
          data: `0x${(5n).toString(16).padStart(64, "0")}`,
          blockNumber: "0x2",
          blockHash: blockAt(2, "99").hash,
          transactionHash: `0x${"cd".repeat(32)}`,
          logIndex: "0x0",
        },
      ];
    }
  }
  if (path === "/shape") return { number: "tall", hash: 42 };
  return undefined;
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      if (path === "/hang") return; // never answers
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      const json = (payload: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(payload));
      if (method === "eth_chainId") return json({ jsonrpc: "2.0", id, result: ANVIL_CHAIN_ID_HEX });
      switch (path) {
        case "/garbage":
          return response.writeHead(200, { "content-type": "application/json" }).end("}{ not json at all");
        case "/html":
          return response.writeHead(200, { "content-type": "text/html" }).end("<html><body>Bad gateway</body></html>");
        case "/empty":
          return json({ jsonrpc: "2.0", id });
        case "/http-500":
          return response.writeHead(500).end();
        case "/http-429":
          return response.writeHead(429).end("slow down");
        default:
          return json({ jsonrpc: "2.0", id, result: answerFor(path, method, params) ?? null });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Nothing listens here once the probe socket is closed.
  closedPortUrl = `http://127.0.0.1:${await findFreePort()}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const NO_RETRY = { count: 0, delayMs: 0 };
const TXID = `0x${"ab".repeat(32)}`;
const key = devAccount(0).signingKey;

async function expectRetryable(promise: Promise<unknown>): Promise<ChainError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a ChainError");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChainError);
  expect((error as ChainError).retryable).toBe(true);
  return error as ChainError;
}

describe("RPC failures become retryable ChainErrors, never partial data", () => {
  const broken = ["/garbage", "/html", "/shape", "/empty", "/http-500", "/http-429"];

  test.each(broken)("%s", async (path) => {
    const rpcUrl = `${baseUrl}${path}`;
    const adapter = createEvmAdapter({ network: "ethereum", rpcUrl, retry: NO_RETRY });
    const sender = createEvmSender({ network: "ethereum", rpcUrl, retry: NO_RETRY });
    await expectRetryable(adapter.getTip());
    await expectRetryable(adapter.getBlockHash(1));
    await expectRetryable(adapter.scanTransfers({ afterHeight: 0 }));
    await expectRetryable(sender.getTransaction(TXID));
    await expectRetryable(sender.estimateFee(key, { currency: "ETH", toAddress: devAccount(1).account.address, amountMinor: 1n }));
    await expectRetryable(sender.sign(key, { currency: "USDT", toAddress: devAccount(1).account.address, amountMinor: 1n }, { inFlight: [] }));
    await expectRetryable(sender.canStillLand({ txid: TXID, consumes: { nonce: 1 } }, key));
  });

  test("a scan fails whole when one block of its range is missing or a log's block changed", async () => {
    for (const path of ["/missing-block", "/moved-log"]) {
      const adapter = createEvmAdapter({ network: "ethereum", rpcUrl: `${baseUrl}${path}`, retry: NO_RETRY });
      expect(await adapter.getTip()).toEqual({ height: 5, hash: blockAt(5).hash });
      const error = await expectRetryable(adapter.scanTransfers({ afterHeight: 0 }));
      expect(error.message).toMatch(path === "/missing-block" ? /block 3 is not available/ : /block 2 changed during the scan/);
    }
    // Sanity: the same fake chain without the fault scans fine.
    const healthy = createEvmAdapter({ network: "ethereum", rpcUrl: `${baseUrl}/moved-log`, retry: NO_RETRY });
    expect(await healthy.scanTransfers({ afterHeight: 2 })).toEqual([]);
  });

  test("the error message names the method but not the URL (it may carry an API key)", async () => {
    const adapter = createEvmAdapter({ network: "polygon", rpcUrl: `${baseUrl}/http-500?apikey=secret`, retry: NO_RETRY });
    const error = await expectRetryable(adapter.getTip());
    expect(error.message).toContain("eth_getBlockByNumber");
    expect(error.message).not.toContain("secret");
    expect(error.message).not.toContain(baseUrl);
  });

  test("a node that never answers fails within the timeout", async () => {
    const adapter = createEvmAdapter({ network: "ethereum", rpcUrl: `${baseUrl}/hang`, timeoutMs: 300, retry: NO_RETRY });
    const started = Date.now();
    await expectRetryable(adapter.getTip());
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
  });

  test("with retries, a hanging node fails within (retries + 1) timeouts plus the backoff", async () => {
    const sender = createEvmSender({ network: "base", rpcUrl: `${baseUrl}/hang`, timeoutMs: 200, retry: { count: 2, delayMs: 50 } });
    const started = Date.now();
    await expectRetryable(sender.getTransaction(TXID));
    const elapsed = Date.now() - started;
    // 3 attempts of 200 ms and backoff of 50 + 100 ms.
    expect(elapsed).toBeGreaterThanOrEqual(3 * 200);
    expect(elapsed).toBeLessThan(3 * 200 + 150 + 700);
  });

  test("a closed port", async () => {
    const adapter = createEvmAdapter({ network: "arbitrum", rpcUrl: closedPortUrl, retry: NO_RETRY });
    await expectRetryable(adapter.getTip());
    await expectRetryable(adapter.scanTransfers({ afterHeight: 10 }));
    const sender = createEvmSender({ network: "arbitrum", rpcUrl: closedPortUrl, retry: NO_RETRY });
    await expectRetryable(sender.sign(key, { currency: "ETH", toAddress: devAccount(1).account.address, amountMinor: 1n }, { inFlight: [] }));
  });
});
