import type { z } from "zod";
import { ChainError } from "@/lib/chains/types";
import { hexToBytes, isHex } from "@/lib/chains/tron/tron-encoding";

/**
 * A client of the TRON full-node HTTP API (`/wallet/*` of java-tron, TronGrid and the hosted
 * providers that proxy it). Every call is a JSON POST; every answer is checked against a schema.
 *
 * Failures leave as ChainError:
 * - retryable: no answer in time, connection failures, HTTP 408/425/429/5xx, a body that is not
 *   JSON or not of the expected shape (a proxy's error page, a node mid-restart);
 * - not retryable: the node answered and refused (`{"Error": "…"}`: bad address, contract
 *   validation, insufficient balance), and other HTTP 4xx (wrong path, bad API key).
 * Messages name the path and never the URL, which may carry a provider token.
 */

/** The `fetch` the client calls; tests inject one that serves recorded answers. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

export interface TronHttpOptions {
  /** Base URL of the node's HTTP API, e.g. `https://api.trongrid.io` or `http://127.0.0.1:8090`. */
  rpcUrl: string;
  /** Sent as `TRON-PRO-API-KEY` (TronGrid); omitted when unset. */
  apiKey?: string;
  /** Per-call timeout in ms, covering the whole answer. Default 10 000. */
  timeoutMs?: number;
  fetch?: FetchFunction;
}

/** The node answered and refused the call. `apiMessage` is the node's text, decoded when it came as hex. */
export class TronApiError extends ChainError {
  readonly path: string;
  /** A java-tron response code (`CONTRACT_VALIDATE_ERROR`, `SIGERROR`, …) when the node gave one. */
  readonly code: string | null;
  readonly apiMessage: string;
  constructor(path: string, code: string | null, apiMessage: string, retryable = false) {
    super(`${path}: the node refused${code ? ` (${code})` : ""}: ${apiMessage.slice(0, 300)}`, { retryable });
    this.name = "TronApiError";
    this.path = path;
    this.code = code;
    this.apiMessage = apiMessage;
  }
}

export interface TronHttp {
  /**
   * POSTs `body` to `path` (e.g. `/wallet/getnowblock`) and returns the answer parsed by `schema`;
   * `timeoutMs` replaces the client's timeout for this call.
   */
  post<T>(path: string, body: Record<string, unknown>, schema: z.ZodType<T>, options?: { timeoutMs?: number }): Promise<T>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const RETRYABLE_STATUSES = new Set([408, 425, 429]);

export function createTronHttp(options: TronHttpOptions): TronHttp {
  const baseUrl = options.rpcUrl.replace(/\/+$/, "");
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fetchFunction: FetchFunction = options.fetch ?? ((input, init) => fetch(input, init));
  const headers: Record<string, string> = { accept: "application/json", "content-type": "application/json" };
  if (options.apiKey) headers["TRON-PRO-API-KEY"] = options.apiKey;

  async function exchange(path: string, body: Record<string, unknown>, timeoutMs: number): Promise<{ status: number; text: string }> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Raced as well as passed as the signal: a fetch that ignores the signal must not hang the caller.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ChainError(`${path}: the node did not answer within ${timeoutMs} ms`, { retryable: true }));
      }, timeoutMs);
    });
    const attempt = (async () => {
      const response = await fetchFunction(`${baseUrl}${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      return { status: response.status, text: await response.text() };
    })();
    try {
      return await Promise.race([attempt, timeout]);
    } catch (error) {
      if (error instanceof ChainError) throw error;
      throw new ChainError(`${path}: the request failed (${error instanceof Error ? error.name : "unknown error"})`, { retryable: true, cause: error });
    } finally {
      clearTimeout(timer);
      attempt.catch(() => undefined);
    }
  }

  return {
    async post(path, body, schema, callOptions) {
      const { status, text } = await exchange(path, body, callOptions?.timeoutMs ?? defaultTimeoutMs);
      if (status < 200 || status > 299) {
        const retryable = status >= 500 || RETRYABLE_STATUSES.has(status);
        throw new ChainError(`${path}: HTTP ${status}`, { retryable });
      }
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch (error) {
        throw new ChainError(`${path}: the answer is not JSON`, { retryable: true, cause: error });
      }
      // java-tron reports exceptions of most servlets as HTTP 200 `{"Error": "class …Exception : message"}`.
      if (isRecord(answer) && typeof answer.Error === "string") throw new TronApiError(path, null, answer.Error);
      const parsed = schema.safeParse(answer);
      if (!parsed.success) throw new ChainError(`${path}: the node answered with an unexpected shape`, { retryable: true, cause: parsed.error });
      return parsed.data;
    },
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A node message as text. With `visible: false` java-tron writes `Return.message` and
 * `resMessage` as the hex of their UTF-8 bytes; plain text is returned as it is.
 */
export function decodeNodeMessage(message: string | undefined): string {
  if (!message) return "";
  if (!isHex(message)) return message;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(hexToBytes(message));
  } catch {
    return message;
  }
}
