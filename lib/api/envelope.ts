import type { AppError } from "@/lib/errors";

/** How an operation's result is wrapped; the spec's exceptions are flags, not branches in handlers. */
export type EnvelopeKind = "standard" | "bare" | "created";

/** spec: Transport conventions — `{state: 0, result}`, or the bare object for the documented exceptions. */
export function successBody(kind: EnvelopeKind, result: unknown): { status: number; body: unknown } {
  switch (kind) {
    case "standard":
      return { status: 200, body: { state: 0, result } };
    case "bare":
      return { status: 200, body: result };
    case "created":
      return { status: 201, body: result };
  }
}

export function errorBody(error: AppError): { status: number; body: unknown } {
  return { status: error.status, body: { error: { code: error.code, message: error.message } } };
}

/** spec: Transport conventions — a 429 has `{state: 1, message}` and no `error` object. */
export function rateLimitedBody(retryAfterSeconds: number): { body: unknown; headers: Record<string, string> } {
  return {
    body: { state: 1, message: "Too many requests; retry after the interval in Retry-After." },
    headers: { "retry-after": String(retryAfterSeconds) },
  };
}
