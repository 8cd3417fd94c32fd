import { GatewayError, type GatewayErrorKind, type TransportErrorCode } from "./errors";
import type { OperationFacts } from "./operation-facts";
import { backoffDelayMs, retryAfterMs, type BackoffOptions } from "./retry";
import { signatureHeaders } from "./signing";

/** What every call of one client shares. */
export interface TransportSettings {
  baseUrl: string;
  publicId: string;
  secret: string;
  fetch: typeof fetch;
  maxRetries: number;
  timeoutMs: number;
  backoff: BackoffOptions;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  /** Milliseconds since the epoch (the signing timestamp, Retry-After dates). */
  now: () => number;
}

/** One logical call: every attempt sends these same bytes. */
export interface PreparedCall {
  method: "GET" | "POST";
  /** The operation's path as the document names it. */
  operationPath: string;
  /** The path sent, its `{name}` segments filled in. */
  requestPath: string;
  /** The body, serialised once: these bytes are signed and sent on every attempt. */
  body: Uint8Array<ArrayBuffer> | null;
  facts: OperationFacts;
  idempotencyKey: string | null;
  signal?: AbortSignal;
}

/** A successful answer and what the client learnt while getting it. */
export interface CallResponse {
  status: number;
  /** The parsed JSON body, envelope included. */
  body: unknown;
  requestId: string | null;
  /** `Idempotent-Replayed: true`: the service answered from the key's record. */
  isReplayed: boolean;
  idempotencyKey: string | null;
  attempts: number;
}

/** Connection errors that prove the request never reached the service: any call may repeat. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Statuses after which the call is repeated when repeating is safe: 503 (the service did nothing),
 * 500 (an unexpected failure, which frees the Idempotency-Key), and 502/504 (a proxy lost the answer).
 */
const TEMPORARY_STATUSES = new Set([500, 502, 503, 504]);

type AttemptOutcome =
  | { kind: "success"; response: CallResponse }
  | { kind: "failure"; error: GatewayError; isRetryable: boolean; waitMs: number | null };

function causeCode(error: unknown): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

function describeCause(error: unknown): string {
  const code = causeCode(error);
  const message = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return code ? `${message} (${code})` : message;
}

/**
 * Sends a call, repeating it on failures that allow it: a 429 always (the service refused it
 * before doing anything), honouring Retry-After; a 500/502/503/504, a timeout or a lost connection
 * only when repeating cannot act twice (a read, or an idempotent operation carrying its key);
 * a connection refused always (nothing was sent). Waits use exponential backoff with full jitter.
 */
export async function sendWithRetries(settings: TransportSettings, call: PreparedCall): Promise<CallResponse> {
  const isSafeToRepeat = call.facts.readOnly || (call.facts.idempotent && call.idempotencyKey !== null);
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(settings, call, attempt, isSafeToRepeat);
    if (outcome.kind === "success") return outcome.response;
    const retry = attempt - 1;
    if (!outcome.isRetryable || retry >= settings.maxRetries) throw outcome.error;
    if (outcome.waitMs !== null && outcome.waitMs > settings.backoff.capMs) throw outcome.error; // the caller decides whether to wait that long
    await settings.sleep(outcome.waitMs ?? backoffDelayMs(retry, settings.backoff, settings.random), call.signal);
  }
}

async function attemptOnce(settings: TransportSettings, call: PreparedCall, attempt: number, isSafeToRepeat: boolean): Promise<AttemptOutcome> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (call.body !== null) headers["Content-Type"] = "application/json";
  if (call.idempotencyKey !== null) headers["Idempotency-Key"] = call.idempotencyKey;
  if (call.facts.signed) {
    // Signed per attempt, over the same bytes: a retry after a long wait keeps a fresh timestamp.
    Object.assign(
      headers,
      signatureHeaders({
        publicId: settings.publicId,
        secret: settings.secret,
        timestampSeconds: Math.floor(settings.now() / 1000),
        method: call.method,
        pathWithQuery: call.requestPath,
        body: call.body ?? new Uint8Array(),
      }),
    );
  }
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  const fail = (kind: GatewayErrorKind, init: { status: number | null; code: string; message: string; requestId: string | null; retryAfterSeconds?: number; cause?: unknown }) =>
    new GatewayError({ kind, method: call.method, path: call.operationPath, attempts: attempt, idempotencyKey: call.idempotencyKey, ...init });

  let response: Response;
  let text: string;
  try {
    response = await settings.fetch(new URL(call.requestPath, settings.baseUrl), {
      method: call.method,
      headers,
      body: call.body ?? undefined,
      signal,
      redirect: "error",
    });
    text = await response.text();
  } catch (error) {
    if (call.signal?.aborted) throw call.signal.reason;
    if (timeout.aborted) {
      const message = `No answer within ${settings.timeoutMs} ms`;
      return { kind: "failure", error: fail("timeout", { status: null, code: "client.timeout" satisfies TransportErrorCode, message, requestId: null, cause: error }), isRetryable: isSafeToRepeat, waitMs: null };
    }
    const wasNotSent = NOT_SENT_CODES.has(causeCode(error) ?? "");
    const message = `Request failed: ${describeCause(error)}`;
    return { kind: "failure", error: fail("network", { status: null, code: "client.network" satisfies TransportErrorCode, message, requestId: null, cause: error }), isRetryable: wasNotSent || isSafeToRepeat, waitMs: null };
  }

  const requestId = response.headers.get("x-request-id");
  let body: unknown;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok && body !== undefined) {
    return {
      kind: "success",
      response: { status: response.status, body, requestId, isReplayed: response.headers.get("idempotent-replayed") === "true", idempotencyKey: call.idempotencyKey, attempts: attempt },
    };
  }
  const waitMs = retryAfterMs(response.headers.get("retry-after"), settings.now());
  if (response.status === 429) {
    const message = (body as { message?: unknown } | undefined)?.message;
    const error = fail("rate_limited", {
      status: 429,
      code: "request.rate_limited" satisfies TransportErrorCode,
      message: typeof message === "string" ? message : "Too many requests",
      requestId,
      retryAfterSeconds: waitMs === null ? undefined : Math.ceil(waitMs / 1000),
    });
    return { kind: "failure", error, isRetryable: true, waitMs };
  }
  const apiError = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const error =
    apiError && typeof apiError.code === "string"
      ? fail("api", { status: response.status, code: apiError.code, message: typeof apiError.message === "string" ? apiError.message : apiError.code, requestId })
      : fail("api", { status: response.status, code: "client.bad_response" satisfies TransportErrorCode, message: `HTTP ${response.status} without the API's JSON body`, requestId });
  // spec: Errors — idempotency.in_progress: the first attempt still runs; the same key later gets its answer.
  const isStillRunning = response.status === 409 && error.code === "idempotency.in_progress";
  return { kind: "failure", error, isRetryable: isSafeToRepeat && (TEMPORARY_STATUSES.has(response.status) || isStillRunning), waitMs };
}
