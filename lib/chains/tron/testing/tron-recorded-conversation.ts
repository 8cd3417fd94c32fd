import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import type { FetchFunction } from "@/lib/chains/tron/tron-http";

/**
 * Test support: a `fetch` that plays a recorded conversation with a TRON node. Each exchange
 * states the request the client must make (path and JSON body) and the answer to give back, in
 * order. A request that differs is recorded as a failure (and answered with an error): tests call
 * `assertDone()`, so a wrong request fails the test even when the client turns it into a
 * ChainError the test expected.
 */

export const TEST_NODE_URL = "https://node.test";

export interface RecordedExchange {
  path: string;
  /** The JSON body the client must send; compared exactly. */
  body: unknown;
  /** Name of a file under ./fixtures served verbatim. */
  fixture?: string;
  /** An inline answer, serialized as JSON. */
  json?: unknown;
  /** An inline raw answer (garbage, an HTML error page). */
  text?: string;
  /** HTTP status of the answer. Default 200. */
  status?: number;
  /** Never answers (until the client aborts): a timeout. */
  hang?: boolean;
}

export interface RecordedRequest {
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export interface RecordedConversation {
  fetch: FetchFunction;
  requests: RecordedRequest[];
  /** Throws unless every exchange happened, in order, exactly as recorded. */
  assertDone(): void;
}

export function readFixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
}

export function readFixtureJson(name: string): unknown {
  return JSON.parse(readFixture(name));
}

export function createRecordedConversation(exchanges: readonly RecordedExchange[]): RecordedConversation {
  const requests: RecordedRequest[] = [];
  const failures: string[] = [];
  let next = 0;

  const fetchFunction: FetchFunction = async (input, init) => {
    const url = new URL(input);
    const path = url.pathname;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    let body: unknown;
    try {
      body = typeof init.body === "string" ? JSON.parse(init.body) : init.body;
    } catch {
      body = init.body;
    }
    requests.push({ path, body, headers });
    const exchange = exchanges[next++];
    if (`${url.origin}` !== TEST_NODE_URL) failures.push(`request ${requests.length} went to ${url.origin}`);
    if (init.method !== "POST") failures.push(`request ${requests.length} used ${init.method}`);
    if (!exchange) {
      failures.push(`unexpected request ${requests.length}: ${path} ${JSON.stringify(body)}`);
      throw new Error("unexpected request");
    }
    if (exchange.path !== path || !isDeepStrictEqual(exchange.body, body)) {
      failures.push(`request ${requests.length}: expected ${exchange.path} ${JSON.stringify(exchange.body)}, got ${path} ${JSON.stringify(body)}`);
      throw new Error("request differs from the recording");
    }
    if (exchange.hang) {
      return new Promise<Response>((_, reject) => {
        init.signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
      });
    }
    const text = exchange.fixture !== undefined ? readFixture(exchange.fixture) : exchange.text ?? JSON.stringify(exchange.json);
    return new Response(text, { status: exchange.status ?? 200, headers: { "content-type": "application/json; charset=utf-8" } });
  };

  return {
    fetch: fetchFunction,
    requests,
    assertDone() {
      if (next < exchanges.length) failures.push(`${exchanges.length - next} recorded exchange(s) never happened, next: ${exchanges[next]?.path}`);
      if (failures.length > 0) throw new Error(`the conversation with the node differs:\n${failures.join("\n")}`);
    },
  };
}
