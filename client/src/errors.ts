import type { ErrorCode, GetPath, HttpMethod, PathOf, PostPath } from "./types";

/**
 * How a call failed:
 * - `api`: the service answered with `{error: {code, message}}` (or with a body that is not the API's);
 * - `rate_limited`: 429 on every attempt, or a Retry-After longer than the client waits;
 * - `network`: no answer (connection refused, reset, dropped);
 * - `timeout`: no answer within `timeoutMs`.
 */
export type GatewayErrorKind = "api" | "rate_limited" | "network" | "timeout";

/** Codes the client gives failures that carry no code of the service's own. */
export type TransportErrorCode = "request.rate_limited" | "client.network" | "client.timeout" | "client.bad_response";

export interface GatewayErrorInit<Code extends string> {
  kind: GatewayErrorKind;
  /** The HTTP status; null when no answer came. */
  status: number | null;
  code: Code | TransportErrorCode;
  message: string;
  requestId: string | null;
  method: "GET" | "POST";
  /** The operation's path as the document names it (`/v1/pay/{id}`). */
  path: string;
  attempts: number;
  /** The Idempotency-Key the call sent (its own or the caller's); null when it sent none. */
  idempotencyKey: string | null;
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * A failed call. `code` is the contract (`<domain>.<reason>`, typed as the codes the document
 * lists for the operation when narrowed with `isGatewayError(error, path)`); `message` is for
 * people and may change; `requestId` is the X-Request-Id to quote when asking for help.
 */
export class GatewayError<Code extends string = string> extends Error {
  override readonly name = "GatewayError";
  readonly kind: GatewayErrorKind;
  readonly status: number | null;
  readonly code: Code | TransportErrorCode;
  readonly requestId: string | null;
  readonly method: "GET" | "POST";
  readonly path: string;
  /** How many requests the call made before giving up. */
  readonly attempts: number;
  /**
   * The Idempotency-Key the call sent. When a creating call fails without a definite answer
   * (timeout, 503, dropped connection), retry it later with this key: a new key could act twice.
   */
  readonly idempotencyKey: string | null;
  /** Retry-After of the last 429, in seconds. */
  readonly retryAfterSeconds?: number;

  constructor(init: GatewayErrorInit<Code>) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.idempotencyKey = init.idempotencyKey;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** Whether `error` is a GatewayError; with a path, whether it came from that operation (and its `code` is typed by it). */
export function isGatewayError(error: unknown): error is GatewayError;
export function isGatewayError<Path extends PostPath>(error: unknown, path: Path, method?: "post"): error is GatewayError<ErrorCode<Path, "post">>;
export function isGatewayError<Path extends GetPath>(error: unknown, path: Path, method: "get"): error is GatewayError<ErrorCode<Path, "get">>;
export function isGatewayError(error: unknown, path?: PathOf<HttpMethod>, method: HttpMethod = "post"): boolean {
  if (!(error instanceof GatewayError)) return false;
  return path === undefined || (error.path === path && error.method === method.toUpperCase());
}

/** Why constructEvent refused a delivery. */
export type WebhookVerificationFailure = "bad_signature" | "bad_body" | "unknown_event";

/** A webhook delivery that is not authentic, not fresh, or not one this client knows how to read. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}
