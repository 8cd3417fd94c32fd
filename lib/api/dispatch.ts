import { randomUUID } from "node:crypto";
import { AppError, isAppError } from "@/lib/errors";
import { answerAsResponse, apiRequestFromFetch, type ApiAnswer, type ApiRequest } from "./api-request";
import { cidrContains, parseCidr, parseIp } from "@/lib/domain/net/ip";
import { findActiveApiKey } from "@/lib/auth/api-keys";
import type { MerchantInvoiceTerms } from "@/lib/domain/invoice/merchant-terms";
import { findKeptApiKey } from "@/lib/auth/api-key-cache";
import { addLogContext, log, withLogContext } from "@/lib/log";
import type { ApiDeps } from "./deps";
import { contractViolation } from "./contract";
import { tellObservers, type RequestObservation, type RequestOutcome } from "./request-observation";
import { errorBody, rateLimitedBody, successBody } from "./envelope";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_LOCK_SECONDS,
  releaseIdempotencyKey,
  renewIdempotencyClaim,
  type IdempotencyScope,
} from "@/lib/services/idempotency/idempotency-records";
import { hashRequestBody, validateIdempotencyKey } from "./idempotency";
import type { OperationContext, OperationEntry, RecordAnswer } from "./operation";
import { isValidSignature, isWellFormedTimestamp } from "./signature";

/** spec: Limits — request body at most 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface CompiledRoute {
  entry: OperationEntry;
  pattern: RegExp;
  paramNames: string[];
}

export interface Router {
  match(method: string, path: string): { entry: OperationEntry; params: Record<string, string> } | "method_not_allowed" | null;
  /** The table it routes by. */
  table: readonly OperationEntry[];
}

/** Compiles the operation table into a matcher; `{name}` matches one path segment. */
export function createRouter(table: readonly OperationEntry[]): Router {
  const routes: CompiledRoute[] = table.map((entry) => {
    const paramNames: string[] = [];
    const source = entry.path
      .split("/")
      .map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        paramNames.push(param[1]);
        return "([^/]+)";
      })
      .join("/");
    return { entry, pattern: new RegExp(`^${source}$`), paramNames };
  });
  return {
    table,
    match(method, path) {
      let isPathKnown = false;
      for (const route of routes) {
        const found = route.pattern.exec(path);
        if (!found) continue;
        isPathKnown = true;
        if (route.entry.method !== method) continue;
        const params: Record<string, string> = {};
        try {
          route.paramNames.forEach((name, i) => (params[name] = decodeURIComponent(found[i + 1])));
        } catch {
          return null; // malformed percent-encoding names no resource
        }
        return { entry: route.entry, params };
      }
      return isPathKnown ? "method_not_allowed" : null;
    },
  };
}

function parseJsonBody(body: Uint8Array): unknown {
  if (body.byteLength === 0) return {};
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new AppError("request.bad_json");
  }
}

/** spec: Authentication — the checks of the authentication table, over the raw bytes, before any parsing. */
async function authenticate(
  request: ApiRequest,
  entry: OperationEntry,
  pathWithQuery: string,
  body: Uint8Array,
  clientIp: string,
  deps: ApiDeps,
): Promise<{ merchantId: string; actor: string; merchantTerms: MerchantInvoiceTerms }> {
  if (entry.auth.kind !== "signed") throw new Error("authenticate() is for signed operations");
  const timestamp = request.headers.get("x-timestamp");
  if (!isWellFormedTimestamp(timestamp)) throw new AppError("auth.bad_timestamp");
  const publicId = request.headers.get("x-public-id");
  const key = publicId ? await findKeptApiKey(publicId, () => findActiveApiKey(deps.db, deps.secretBox, publicId)) : null;
  if (!key) throw new AppError("merchant.unknown_key");
  const isSigned = isValidSignature({
    secret: key.secret,
    timestamp,
    method: request.method,
    path: pathWithQuery,
    body,
    signature: request.headers.get("x-signature"),
    nowSeconds: Math.floor(deps.now().getTime() / 1000),
  });
  if (!isSigned) throw new AppError("merchant.bad_signature");
  if (key.allowlist.enabled) {
    const address = parseIp(clientIp);
    const isAllowed =
      address !== null &&
      key.allowlist.entries.some((entryText) => {
        const range = parseCidr(entryText);
        return range !== null && cidrContains(range, address);
      });
    if (!isAllowed) throw new AppError("auth.ip_not_allowed");
  }
  if (!entry.auth.keys.includes(key.kind)) throw new AppError("merchant.wrong_key_kind");
  return { merchantId: key.merchantId, actor: `key:${key.publicId}`, merchantTerms: key.invoiceTerms };
}

/** The header carrying the request id: a caller's own (when well-formed) is kept, else one is made. */
export const REQUEST_ID_HEADER = "x-request-id";

function requestIdOf(request: ApiRequest): string {
  const given = request.headers.get(REQUEST_ID_HEADER);
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : `req_${randomUUID().replaceAll("-", "")}`;
}

function outcomeOf(status: number, body: unknown, extra: Partial<RequestOutcome> = {}): RequestOutcome {
  return { status, bodyText: JSON.stringify(body), headers: {}, entry: null, merchantId: null, code: null, ...extra };
}

function errorOutcome(error: AppError, extra: Partial<RequestOutcome> = {}): RequestOutcome {
  const { status, body } = errorBody(error);
  return outcomeOf(status, body, { code: error.code, ...extra });
}

export interface DispatchOptions {
  clientIp: string;
  deps: ApiDeps;
  router: Router;
}

/**
 * The single entry of every /v1 operation: size limit → authentication (signature, window,
 * key, allow-list, key kind) → rate limit → JSON → idempotency → handler → envelope. Every
 * answer carries a request id, and observers (logs, metrics) are told of it.
 */
export async function dispatch(request: ApiRequest, options: DispatchOptions): Promise<ApiAnswer> {
  const started = performance.now();
  const requestId = requestIdOf(request);
  // Lines logged while the request is handled carry its id (and its merchant, once known).
  const outcome = await withLogContext({ request_id: requestId }, () => answer(request, options));
  const checked = contractViolation(outcome);
  const final = checked
    ? errorOutcome(new AppError("internal.error", `contract: ${checked}`), { entry: outcome.entry, merchantId: outcome.merchantId, error: new Error(checked) })
    : outcome;
  const observation: RequestObservation = {
    ...final,
    requestId,
    method: request.method,
    path: loggedPath(request.pathname),
    clientIp: options.clientIp,
    durationMs: performance.now() - started,
  };
  tellObservers(observation);
  return {
    status: final.status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...final.headers, [REQUEST_ID_HEADER]: requestId },
    bodyText: final.bodyText,
  };
}

/** dispatch() for a fetch Request: Next's route handler and tests. */
export async function dispatchFetch(request: Request, options: DispatchOptions): Promise<Response> {
  return answerAsResponse(await dispatch(apiRequestFromFetch(request), options));
}

async function answer(request: ApiRequest, options: DispatchOptions): Promise<RequestOutcome> {
  const { deps, router, clientIp } = options;
  let entry: OperationEntry | null = null;
  let merchantId: string | null = null;
  try {
    const matched = router.match(request.method, request.pathname);
    if (matched === null) throw new AppError("request.not_found");
    if (matched === "method_not_allowed") throw new AppError("request.method_not_allowed");
    entry = matched.entry;
    const { params } = matched;
    const operation = entry;

    const body = request.method === "GET" ? new Uint8Array() : await request.readBody(MAX_BODY_BYTES);
    const caller = entry.auth.kind === "signed" ? await authenticate(request, entry, request.pathname + request.search, body, clientIp, deps) : null;
    merchantId = caller?.merchantId ?? null;
    if (merchantId !== null) addLogContext({ merchant_id: merchantId });
    const actor = caller?.actor ?? null;
    const merchantTerms = caller?.merchantTerms ?? null;
    const done = (status: number, bodyText: string, code: string | null, headers: Record<string, string> = {}): RequestOutcome => ({
      status,
      bodyText,
      headers,
      entry: operation,
      merchantId,
      code,
    });

    const retryAfter = deps.rateLimiter.take(merchantId ? `merchant:${merchantId}` : `ip:${clientIp}`, deps.now().getTime());
    if (retryAfter > 0) {
      const limited = rateLimitedBody(retryAfter);
      return done(429, JSON.stringify(limited.body), "request.rate_limited", limited.headers);
    }

    const input = request.method === "GET" ? {} : parseJsonBody(body);
    const execute = async (context: OperationContext, recordAnswer?: RecordAnswer) => {
      try {
        const result = await operation.operation.run(input, context, recordAnswer);
        return { ...successBody(operation.envelope, result), code: null };
      } catch (error) {
        if (isAppError(error) && error.status < 500) return { ...errorBody(error), code: error.code as string | null };
        throw error;
      }
    };

    const keyHeader = request.headers.get("idempotency-key");
    if (!entry.idempotent || keyHeader === null || merchantId === null) {
      const outcome = await execute({ deps, merchantId, actor, merchantTerms, params, clientIp, operations: router.table });
      return done(outcome.status, JSON.stringify(outcome.body), outcome.code);
    }

    const scope: IdempotencyScope = { merchantId, operation: request.pathname, key: validateIdempotencyKey(keyHeader) };
    const claim = await claimIdempotencyKey(deps.db, scope, hashRequestBody(body), deps.now());
    if (claim.kind === "in_progress") throw new AppError("idempotency.in_progress");
    if (claim.kind === "replay") {
      return done(claim.response.status, claim.response.body, codeOfStoredAnswer(claim.response.body), { "idempotent-replayed": "true" });
    }
    // A unit of work stores its answer in its own transaction (recordAnswer); a read, a flow, or
    // a refusal (whose writes rolled back) has its answer stored here after.
    let completedWithin: string | null = null;
    const recordAnswer: RecordAnswer = async (tx, result) => {
      const answer = successBody(operation.envelope, await result);
      const bodyText = JSON.stringify(answer.body);
      if (!(await completeIdempotencyKey(tx, scope, claim.claimToken, { status: answer.status, body: bodyText }))) {
        throw new AppError("idempotency.in_progress"); // another attempt took the key over: these writes roll back
      }
      completedWithin = bodyText;
    };
    const renewal = setInterval(() => {
      renewIdempotencyClaim(deps.db, scope, claim.claimToken, deps.now()).catch((error) => log.warn("could not renew idempotency claim", { error, key: scope.key }));
    }, (IDEMPOTENCY_LOCK_SECONDS * 1000) / 3);
    let outcome: { status: number; body: unknown; code: string | null };
    try {
      outcome = await execute({ deps, merchantId, actor, merchantTerms, params, clientIp, operations: router.table }, recordAnswer);
    } catch (error) {
      // Not a business outcome: free the key so that a retry runs the request again.
      await releaseIdempotencyKey(deps.db, scope, claim.claimToken).catch((releaseError) =>
        log.error("could not release idempotency key", { error: releaseError, key: scope.key }),
      );
      throw error;
    } finally {
      clearInterval(renewal);
    }
    if (completedWithin !== null && outcome.status < 400) return done(outcome.status, completedWithin, null);
    const bodyText = JSON.stringify(outcome.body);
    await completeIdempotencyKey(deps.db, scope, claim.claimToken, { status: outcome.status, body: bodyText }).catch((error) =>
      // Nothing was written with this answer (a refusal, or a read); a repeat after the lock lapses runs again.
      log.error("could not store idempotent response", { error, key: scope.key }),
    );
    return done(outcome.status, bodyText, outcome.code);
  } catch (error) {
    if (isAppError(error)) return errorOutcome(error, { entry, merchantId, error: error.status >= 500 ? (error.cause ?? error) : undefined });
    if (isDatabaseBusy(error)) return errorOutcome(new AppError("request.busy"), { entry, merchantId, error });
    return errorOutcome(new AppError("internal.error"), { entry, merchantId, error });
  }
}

/** The code of a stored idempotent answer (null for a success). */
function codeOfStoredAnswer(bodyText: string): string | null {
  try {
    const code = (JSON.parse(bodyText) as { error?: { code?: unknown } }).error?.code;
    return typeof code === "string" ? code : null;
  } catch {
    return null;
  }
}

/** Prisma's "no connection from the pool in time" (P2024) and "transaction not started in time" (P2028): load, not a fault. */
function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "P2024" || code === "P2028";
}

/** A path as logs may keep it: a claim token grants money, so it never reaches a log. */
function loggedPath(pathname: string): string {
  return pathname.replace(/^\/v1\/claim\/[^/]+/, "/v1/claim/<token>");
}
