import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ChainError } from "@/lib/chains/types";
import { createTronHttp, decodeNodeMessage, TronApiError, type FetchFunction } from "@/lib/chains/tron/tron-http";

const anySchema = z.looseObject({});

function answering(status: number, text: string): { fetch: FetchFunction; calls: Array<{ url: string; init: RequestInit }> } {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      return new Response(text, { status });
    },
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ChainError> {
  const error = await promise.catch((caught: unknown) => caught);
  if (!(error instanceof ChainError)) throw new Error(`expected a ChainError, got ${String(error)}`);
  return error;
}

describe("createTronHttp", () => {
  it("POSTs JSON to the path under the base URL, with the API key header when one is set", async () => {
    const node = answering(200, '{"blockID":"00"}');
    const http = createTronHttp({ rpcUrl: "https://api.trongrid.io/", apiKey: "key-123", fetch: node.fetch });
    await expect(http.post("/wallet/getblockbynum", { num: 5 }, anySchema)).resolves.toEqual({ blockID: "00" });
    expect(node.calls[0]?.url).toBe("https://api.trongrid.io/wallet/getblockbynum");
    expect(node.calls[0]?.init.method).toBe("POST");
    expect(node.calls[0]?.init.body).toBe('{"num":5}');
    expect(node.calls[0]?.init.headers).toEqual({ accept: "application/json", "content-type": "application/json", "TRON-PRO-API-KEY": "key-123" });
  });

  it("sends no API key header without a key", async () => {
    const node = answering(200, "{}");
    await createTronHttp({ rpcUrl: "http://127.0.0.1:8090", fetch: node.fetch }).post("/wallet/getnowblock", {}, anySchema);
    expect(node.calls[0]?.init.headers).toEqual({ accept: "application/json", "content-type": "application/json" });
  });

  it("turns a java-tron refusal into a non-retryable TronApiError", async () => {
    const node = answering(200, '{"Error":"class org.tron.core.exception.ContractValidateException : Invalid toAddress!"}');
    const error = await failureOf(createTronHttp({ rpcUrl: "https://node.test", fetch: node.fetch }).post("/wallet/createtransaction", {}, anySchema));
    expect(error).toBeInstanceOf(TronApiError);
    expect(error).toMatchObject({ retryable: false, apiMessage: "class org.tron.core.exception.ContractValidateException : Invalid toAddress!" });
  });

  it.each([
    [500, true],
    [502, true],
    [503, true],
    [429, true],
    [408, true],
    [404, false],
    [401, false],
    [413, false],
  ])("HTTP %i is retryable: %s", async (status, retryable) => {
    const node = answering(status, "<html>error</html>");
    const error = await failureOf(createTronHttp({ rpcUrl: "https://secret-token@node.test", fetch: node.fetch }).post("/wallet/getnowblock", {}, anySchema));
    expect(error).toMatchObject({ retryable, message: `/wallet/getnowblock: HTTP ${status}` });
    expect(error.message).not.toContain("secret-token");
  });

  it.each([
    ["garbage", "<html><body>Bad Gateway</body></html>"],
    ["truncated JSON", '{"blockID":"0000'],
    ["an unexpected shape", '{"block": 5}'],
  ])("treats %s as a retryable failure", async (_, text) => {
    const node = answering(200, text);
    const http = createTronHttp({ rpcUrl: "https://node.test", fetch: node.fetch });
    const error = await failureOf(http.post("/wallet/getblockbylimitnext", {}, z.object({ block: z.array(z.unknown()).optional() })));
    expect(error.retryable).toBe(true);
  });

  it("times out a node that never answers, even through a fetch that ignores the abort signal", async () => {
    const fetchFunction: FetchFunction = () => new Promise<Response>(() => undefined);
    const started = Date.now();
    const error = await failureOf(createTronHttp({ rpcUrl: "https://node.test", fetch: fetchFunction, timeoutMs: 30 }).post("/wallet/getnowblock", {}, anySchema));
    expect(error).toMatchObject({ retryable: true, message: "/wallet/getnowblock: the node did not answer within 30 ms" });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("aborts the request it gives up on", async () => {
    let signal: AbortSignal | null | undefined;
    const fetchFunction: FetchFunction = (_, init) => {
      signal = init.signal;
      return new Promise<Response>(() => undefined);
    };
    await failureOf(createTronHttp({ rpcUrl: "https://node.test", fetch: fetchFunction, timeoutMs: 10 }).post("/wallet/getnowblock", {}, anySchema));
    expect(signal?.aborted).toBe(true);
  });

  it("treats a connection failure as retryable", async () => {
    const fetchFunction: FetchFunction = () => Promise.reject(new TypeError("fetch failed"));
    const error = await failureOf(createTronHttp({ rpcUrl: "https://node.test", fetch: fetchFunction }).post("/wallet/getnowblock", {}, anySchema));
    expect(error).toMatchObject({ retryable: true, message: "/wallet/getnowblock: the request failed (TypeError)" });
  });
});

describe("decodeNodeMessage", () => {
  it.each([
    ["76616c6964617465207369676e6174757265206572726f72", "validate signature error"],
    ["Dup transaction.", "Dup transaction."],
    ["", ""],
    [undefined, ""],
    // Hex that is not UTF-8 stays as it came.
    ["ff00", "ff00"],
  ])("%j → %j", (message, text) => {
    expect(decodeNodeMessage(message)).toBe(text);
  });
});
