import type { z } from "zod";
import type { FetchFunction } from "../rpc-endpoints";
import { ChainError } from "../types";
import { parseRpcJson } from "./parse-rpc-json";

export interface UtxoRpcOptions {
  /** `http://user:password@host:port`; the credentials become a Basic Authorization header. */
  rpcUrl: string;
  /** Per-call timeout in ms, covering the whole answer. Default 30 000. */
  timeoutMs?: number;
  /** The fetch requests go through (the network's endpoint pool, with failover); the global fetch when unset. */
  fetch?: FetchFunction;
}

/** The error a node sent back (it understood the call and refused it). */
export interface UtxoNodeError {
  code: number;
  message: string;
}

/**
 * A failed call. `nodeError` is set when the node answered with a JSON-RPC error, null for
 * transport failures (timeout, refused connection, HTTP error, an answer that is not JSON-RPC).
 * Messages name the method but never the URL, which carries the RPC password.
 */
export class UtxoRpcError extends ChainError {
  readonly nodeError: UtxoNodeError | null;
  constructor(message: string, options: { retryable: boolean; nodeError?: UtxoNodeError; cause?: unknown }) {
    super(message, { retryable: options.retryable, cause: options.cause });
    this.name = "UtxoRpcError";
    this.nodeError = options.nodeError ?? null;
  }
}

/** One answer of a batch: the validated result, or the error of that call alone. */
export type UtxoBatchAnswer<T> = { ok: true; value: T } | { ok: false; error: UtxoRpcError };

export interface UtxoRpc {
  /** Calls one method and validates the result; throws UtxoRpcError. */
  call<T>(method: string, params: readonly unknown[], schema: z.ZodType<T>, options?: { timeoutMs?: number }): Promise<T>;
  /** One HTTP request for many calls of one method; a refusal of one call does not fail the others. */
  callBatch<T>(method: string, paramsList: readonly (readonly unknown[])[], schema: z.ZodType<T>, options?: { timeoutMs?: number }): Promise<UtxoBatchAnswer<T>[]>;
  /** `http://host:port/path` without credentials: names the node in locks and logs. */
  endpoint: string;
}

/**
 * Node error codes (Bitcoin Core rpc/protocol.h, shared by litecoind and dogecoind) that describe
 * the node's state rather than the call: the same call may succeed later.
 */
const RETRYABLE_NODE_ERRORS = new Set([
  -2, // forbidden by safe mode
  -7, // out of memory
  -9, // not connected to peers
  -10, // still in initial block download
  -20, // database error
  -28, // warming up (loading blocks, verifying)
  -32603, // internal error
]);

/** scantxoutset runs one scan at a time per node: another process's scan makes ours wait, not fail. */
function isBusyScan(nodeError: UtxoNodeError): boolean {
  return nodeError.code === -8 && /scan already in progress/i.test(nodeError.message);
}

const DEFAULT_TIMEOUT_MS = 30_000;

function describeNodeError(method: string, nodeError: UtxoNodeError): string {
  return `${method}: the node refused (${nodeError.code}: ${nodeError.message.slice(0, 300)})`;
}

function toNodeError(value: unknown): UtxoNodeError | null {
  if (typeof value !== "object" || value === null) return null;
  const { code, message } = value as { code?: unknown; message?: unknown };
  if (typeof code !== "number" || typeof message !== "string") return null;
  return { code, message };
}

/** The node's refusal in an envelope, or null when it carries no error. */
function readRefusal(method: string, envelope: object): UtxoRpcError | null {
  const { error } = envelope as { error?: unknown };
  if (error === null || error === undefined) return null;
  const nodeError = toNodeError(error);
  if (!nodeError) return new UtxoRpcError(`${method}: the answer has a malformed error`, { retryable: true });
  return new UtxoRpcError(describeNodeError(method, nodeError), { retryable: RETRYABLE_NODE_ERRORS.has(nodeError.code) || isBusyScan(nodeError), nodeError });
}

/** Reads one `{ result, error, id }` envelope into a value or an error. */
function readEnvelope<T>(method: string, envelope: unknown, schema: z.ZodType<T>): UtxoBatchAnswer<T> {
  if (typeof envelope !== "object" || envelope === null || !("result" in envelope)) {
    return { ok: false, error: new UtxoRpcError(`${method}: the answer is not JSON-RPC`, { retryable: true }) };
  }
  const refusal = readRefusal(method, envelope);
  if (refusal) return { ok: false, error: refusal };
  const parsed = schema.safeParse(envelope.result);
  if (!parsed.success) {
    return { ok: false, error: new UtxoRpcError(`${method}: the node answered with an unexpected shape`, { retryable: true, cause: parsed.error }) };
  }
  return { ok: true, value: parsed.data };
}

/** Splits `http://user:pass@host:port` into a credential-free URL and its Authorization header. */
function parseRpcUrl(rpcUrl: string): { url: string; authorization: string | null } {
  let url: URL;
  let user: string;
  let password: string;
  try {
    url = new URL(rpcUrl);
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw new ChainError("The RPC URL is not a valid URL", { retryable: false });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ChainError("The RPC URL must be http or https", { retryable: false });
  url.username = "";
  url.password = "";
  const authorization = user || password ? `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` : null;
  return { url: url.toString(), authorization };
}

/**
 * JSON-RPC over HTTP to bitcoind, litecoind or dogecoind. Decimal numbers in answers stay exact
 * strings (`parseRpcJson`), so amounts never pass through a float. Every failure is a UtxoRpcError:
 * retryable for timeouts, connection and HTTP failures, refused credentials (the operator may fix
 * them) and garbage; not retryable when the node refuses a call for a reason of the caller's (bad
 * parameters, unknown transaction, rejected transaction) unless the code says the node is busy.
 */
export function createUtxoRpc(options: UtxoRpcOptions): UtxoRpc {
  const { url, authorization } = parseRpcUrl(options.rpcUrl);
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fetchFunction: FetchFunction = options.fetch ?? ((input, init) => fetch(input, init));
  let nextId = 1;

  /** Posts a body and returns the parsed JSON answer with its HTTP status. */
  async function post(method: string, body: unknown, timeoutMs: number): Promise<{ status: number; json: unknown }> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (authorization) headers.authorization = authorization;
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetchFunction(url, { method: "POST", headers, body: JSON.stringify(body), signal });
      status = response.status;
      // The timeout covers the body too: a node that sends headers and then stalls still times out.
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw new UtxoRpcError(`${method}: the node did not answer within ${timeoutMs} ms`, { retryable: true, cause: error });
      throw new UtxoRpcError(`${method}: the request failed (${error instanceof Error ? error.message : "unknown error"})`, { retryable: true, cause: error });
    }
    if (status === 401 || status === 403) {
      throw new UtxoRpcError(`${method}: the node refused the RPC credentials (HTTP ${status})`, { retryable: true });
    }
    let json: unknown;
    try {
      json = parseRpcJson(text);
    } catch (error) {
      throw new UtxoRpcError(`${method}: HTTP ${status}, and the answer is not JSON`, { retryable: true, cause: error });
    }
    return { status, json };
  }

  return {
    endpoint: url,

    async call(method, params, schema, callOptions) {
      const id = nextId++;
      const { status, json } = await post(method, { jsonrpc: "1.0", id, method, params }, callOptions?.timeoutMs ?? defaultTimeoutMs);
      const answer = readEnvelope(method, json, schema);
      if (answer.ok && status !== 200) throw new UtxoRpcError(`${method}: HTTP ${status}`, { retryable: true });
      if (!answer.ok) throw answer.error;
      return answer.value;
    },

    async callBatch(method, paramsList, schema, callOptions) {
      if (paramsList.length === 0) return [];
      const firstId = nextId;
      nextId += paramsList.length;
      const body = paramsList.map((params, index) => ({ jsonrpc: "1.0", id: firstId + index, method, params }));
      const { status, json } = await post(method, body, callOptions?.timeoutMs ?? defaultTimeoutMs);
      if (!Array.isArray(json)) {
        // A node that refuses the whole batch answers with one envelope.
        const refusal = typeof json === "object" && json !== null ? readRefusal(method, json) : null;
        throw refusal ?? new UtxoRpcError(`${method}: HTTP ${status}, and the answer is not a batch`, { retryable: true });
      }
      const byId = new Map<unknown, unknown>();
      for (const envelope of json) {
        if (typeof envelope === "object" && envelope !== null && "id" in envelope) byId.set(envelope.id, envelope);
      }
      return paramsList.map((_, index) => readEnvelope(method, byId.get(firstId + index), schema));
    },
  };
}
