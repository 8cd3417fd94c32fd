import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Several RPC endpoints behind one network (RPC_<NETWORK>=url1,url2,…). Every family's client
 * speaks HTTP through the pool's `fetch`: a request goes to the first endpoint in configured order
 * that is not cooling down after failures, and moves on to the next when the endpoint fails to
 * answer (connection refused, reset, timeout, HTTP 429/5xx without a JSON-RPC answer). A node that
 * answered and refused (a JSON-RPC error) has answered: that is never a reason to ask another.
 *
 * Reads that decide a transfer's fate must not mix backends (one lagging node behind a balancer
 * would make a consistent story out of two half-truths): `pinned` sends every request made inside
 * it to one endpoint, and fails rather than moves on.
 */

/** The `fetch` every family's client calls. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** How one endpoint has fared, for /metrics and the operator. */
export interface RpcEndpointHealth {
  /** Position in RPC_<NETWORK> and host, never the path or credentials (which may carry API keys). */
  label: string;
  /** False while it cools down after failing. */
  isUp: boolean;
  consecutiveFailures: number;
  requests: number;
  failures: number;
  /** How long its last answer took, in seconds; null before the first. */
  lastLatencySeconds: number | null;
  /** What its last failure was (no URL in it). */
  lastError: string | null;
}

export interface RpcEndpointPool {
  readonly network: string;
  readonly urls: readonly string[];
  /** The first configured URL: what each family's client is built with; requests to it are routed by `fetch`. */
  readonly primaryUrl: string;
  readonly size: number;
  fetch: FetchFunction;
  /** Runs `work` with every request it makes sent to one endpoint (`avoid`: an index not to pick, when another is up). */
  pinned<T>(work: () => Promise<T>, options?: { avoid?: number }): Promise<T>;
  /** Runs `work` with every request it makes sent to endpoint `index` (checking each endpoint on its own). */
  pinnedTo<T>(index: number, work: () => Promise<T>): Promise<T>;
  /** The endpoint index `pinned` work is bound to right now, or null outside `pinned`. */
  pinnedIndex(): number | null;
  health(): RpcEndpointHealth[];
}

interface Endpoint {
  /** The URL without credentials, without trailing slashes. */
  base: string;
  /** Basic credentials from the URL's user info: fetch refuses URLs that carry them. */
  authorization: string | null;
  host: string;
  label: string;
  consecutiveFailures: number;
  coolUntil: number;
  requests: number;
  failures: number;
  lastLatencySeconds: number | null;
  lastError: string | null;
}

export interface RpcEndpointPoolOptions {
  /** Cap on one attempt when the caller set no deadline, in ms. Default 30 000. */
  attemptTimeoutMs?: number;
  /** First cool-down after a failure, doubled per consecutive failure up to `maxCooldownMs`. Default 1 000. */
  cooldownMs?: number;
  maxCooldownMs?: number;
  now?: () => number;
}

/** A failure of the endpoint itself (not an answer from its node). */
class EndpointFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EndpointFailure";
  }
}

/** Headers that carry a provider's API key. */
const PROVIDER_KEY_HEADERS = ["x-api-key", "tron-pro-api-key"];

/** Statuses a proxy or provider sends when the backend is away or busy: ask the next endpoint. */
const UNAVAILABLE_STATUSES = new Set([408, 425, 429, 502, 503, 504]);

function parseEndpoint(url: string, index: number): Endpoint {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  return {
    base: stripTrailingSlashes(parsed.toString()),
    authorization: user || password ? `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` : null,
    host: parsed.host,
    label: `${index + 1}:${parsed.host}`,
    consecutiveFailures: 0,
    coolUntil: 0,
    requests: 0,
    failures: 0,
    lastLatencySeconds: null,
    lastError: null,
  };
}

function stripTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, "");
}

function withoutCredentials(url: string): string | null {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return null;
  }
}

/** A non-2xx answer still counts as the node's when it is a JSON-RPC envelope (bitcoind answers errors with HTTP 500). */
async function isNodeAnswer(response: Response): Promise<boolean> {
  if (response.ok) return true;
  if (UNAVAILABLE_STATUSES.has(response.status)) return false;
  try {
    const body: unknown = JSON.parse(await response.clone().text());
    const envelopes = Array.isArray(body) ? body : [body];
    return envelopes.length > 0 && envelopes.every((entry) => typeof entry === "object" && entry !== null && ("error" in entry || "result" in entry || "Error" in entry));
  } catch {
    return false;
  }
}

const pinning = new AsyncLocalStorage<Map<RpcEndpointPool, number>>();

export function createRpcEndpointPool(network: string, urls: readonly string[], options: RpcEndpointPoolOptions = {}): RpcEndpointPool {
  if (urls.length === 0) throw new Error(`RPC_${network.toUpperCase()} names no endpoint`);
  const endpoints = urls.map(parseEndpoint);
  // Longest first: one endpoint's URL may be a prefix of another's.
  const bases = [...new Set(endpoints.map((endpoint) => endpoint.base))].sort((a, b) => b.length - a.length);
  const now = options.now ?? Date.now;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 30_000;
  const cooldownMs = options.cooldownMs ?? 1_000;
  const maxCooldownMs = options.maxCooldownMs ?? 60_000;

  /** Endpoints in the order to try: those up in configured order, then the cooling ones, soonest back first. */
  function order(avoid?: number): number[] {
    const at = now();
    const indexes = endpoints.map((_, index) => index);
    const up = indexes.filter((index) => endpoints[index].coolUntil <= at);
    const cooling = indexes.filter((index) => endpoints[index].coolUntil > at).sort((a, b) => endpoints[a].coolUntil - endpoints[b].coolUntil);
    const all = [...up, ...cooling];
    if (avoid === undefined) return all;
    return [...all.filter((index) => index !== avoid), avoid];
  }

  function recordSuccess(endpoint: Endpoint, startedAt: number): void {
    endpoint.requests += 1;
    endpoint.consecutiveFailures = 0;
    endpoint.coolUntil = 0;
    endpoint.lastLatencySeconds = (now() - startedAt) / 1000;
  }

  function recordFailure(endpoint: Endpoint, reason: string): void {
    endpoint.requests += 1;
    endpoint.failures += 1;
    endpoint.consecutiveFailures += 1;
    endpoint.lastError = reason;
    endpoint.coolUntil = now() + Math.min(maxCooldownMs, cooldownMs * 2 ** (endpoint.consecutiveFailures - 1));
  }

  /**
   * Rewrites a request addressed to one of the pool's URLs (clients are built with the primary;
   * a check of one endpoint may build its client with that endpoint's) onto `endpoint`; null when
   * it is addressed elsewhere.
   */
  function route(input: string, endpoint: Endpoint): string | null {
    const bare = withoutCredentials(input);
    if (bare === null) return null;
    const stripped = stripTrailingSlashes(bare);
    for (const base of bases) {
      if (stripped === base) return endpoint.base;
      if (bare.startsWith(`${base}/`) || bare.startsWith(`${base}?`)) return `${endpoint.base}${bare.slice(base.length)}`;
    }
    return null;
  }

  async function attempt(index: number, input: string, init: RequestInit | undefined): Promise<Response> {
    const endpoint = endpoints[index];
    const url = route(input, endpoint);
    if (url === null) return fetch(input, init);
    const headers = new Headers(init?.headers);
    if (endpoint.authorization) headers.set("authorization", endpoint.authorization);
    else if (index !== 0) headers.delete("authorization");
    // The clients' API keys (TON_API_KEY, a TronGrid key) are the primary provider's: another
    // provider never sees them.
    if (index !== 0 && endpoint.host !== endpoints[0].host) for (const name of PROVIDER_KEY_HEADERS) headers.delete(name);
    // The caller's deadline governs when it set one (a UTXO scan may take minutes); the cap only
    // stops a request that has none from hanging for ever.
    const signal = init?.signal ?? AbortSignal.timeout(attemptTimeoutMs);
    const startedAt = now();
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers, signal });
    } catch (error) {
      const reason = signal.aborted ? "no answer in time" : `request failed (${error instanceof Error ? error.message : "unknown error"})`;
      recordFailure(endpoint, reason);
      throw new EndpointFailure(reason, { cause: error });
    }
    if (!(await isNodeAnswer(response))) {
      recordFailure(endpoint, `HTTP ${response.status}`);
      throw new EndpointFailure(`HTTP ${response.status}`, { cause: response });
    }
    recordSuccess(endpoint, startedAt);
    return response;
  }

  const pool: RpcEndpointPool = {
    network,
    urls: [...urls],
    primaryUrl: urls[0],
    size: endpoints.length,

    async fetch(request, requestInit) {
      // Clients pass a URL and its init; a Request is taken apart into the same.
      const input = request instanceof Request ? request.url : request.toString();
      const init: RequestInit | undefined = request instanceof Request ? { method: request.method, headers: request.headers, body: await request.text(), signal: request.signal, ...requestInit } : requestInit;
      const pinnedTo = pinning.getStore()?.get(pool);
      const candidates = pinnedTo === undefined ? order() : [pinnedTo];
      let lastFailure: EndpointFailure | null = null;
      for (const index of candidates) {
        try {
          return await attempt(index, input, init);
        } catch (error) {
          if (!(error instanceof EndpointFailure)) throw error;
          lastFailure = error;
          // The caller gave up (its own deadline): no other endpoint is asked on its behalf.
          if (init?.signal?.aborted) break;
        }
      }
      // The last failure's response, when it had one, goes back as is: each client reads HTTP
      // statuses in its own way (retryable or not).
      const cause = lastFailure?.cause;
      if (cause instanceof Response) return cause;
      throw lastFailure?.cause ?? lastFailure ?? new Error("no RPC endpoint answered");
    },

    async pinned(work, options = {}) {
      return pool.pinnedTo(order(options.avoid)[0], work);
    },

    async pinnedTo(index, work) {
      const bindings = new Map(pinning.getStore() ?? []);
      bindings.set(pool, index);
      return pinning.run(bindings, work);
    },

    pinnedIndex() {
      return pinning.getStore()?.get(pool) ?? null;
    },

    health() {
      const at = now();
      return endpoints.map((endpoint) => ({
        label: endpoint.label,
        isUp: endpoint.coolUntil <= at,
        consecutiveFailures: endpoint.consecutiveFailures,
        requests: endpoint.requests,
        failures: endpoint.failures,
        lastLatencySeconds: endpoint.lastLatencySeconds,
        lastError: endpoint.lastError,
      }));
    },
  };
  return pool;
}
