import { randomUUID } from "node:crypto";
import type { OperationFacts } from "./operation-facts";
import { OPERATIONS } from "./operations.generated";
import { DEFAULT_BACKOFF, sleep, type BackoffOptions } from "./retry";
import { sendWithRetries, type TransportSettings } from "./transport";
import type {
  CallOptions,
  CursorPath,
  GetArguments,
  GetPath,
  OptionsFor,
  PageFilter,
  PageItem,
  PostArguments,
  PostPath,
  RequestBody,
  Result,
} from "./types";

export interface GatewayClientOptions {
  /** The service's origin, e.g. `https://pay.example.com` (no path: operations live under `/v1/`). */
  baseUrl: string;
  /** The API key's public id (X-Public-Id). */
  publicId: string;
  /** The API key's secret: signs requests, never sent. */
  secret: string;
  /** Default: the global fetch of Node 20 or later. */
  fetch?: typeof fetch;
  /** Repeats after the first attempt, where repeating is safe. Default 3. */
  maxRetries?: number;
  /** The deadline of each attempt, in milliseconds. Default 30000. */
  timeoutMs?: number;
  /** The waits between attempts. Default base 500 ms, cap 20 s. */
  backoff?: Partial<BackoffOptions>;
  /** Seams for tests: how to wait, the jitter source, and the clock (milliseconds). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** A successful call with what the transport saw. */
export interface ApiResponse<Value> {
  result: Value;
  status: number;
  /** X-Request-Id of the answer. */
  requestId: string | null;
  /** Whether the service answered from an earlier attempt's record (Idempotent-Replayed). */
  isReplayed: boolean;
  /** The Idempotency-Key sent with every attempt; null for operations without one. */
  idempotencyKey: string | null;
  /** Requests made, the successful one included. */
  attempts: number;
}

/** Facts for a path missing from the generated table (a newer service): the most careful reading. */
const UNKNOWN_OPERATION: OperationFacts = { signed: true, idempotent: false, readOnly: false, enveloped: true, cursorPaginated: false };

function factsOf(method: "GET" | "POST", path: string): OperationFacts {
  return (OPERATIONS as Record<string, OperationFacts>)[`${method} ${path}`] ?? UNKNOWN_OPERATION;
}

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === "") throw new TypeError(`${path} needs params.${name}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A client of the Gateway API: signs every signed request over the exact bytes it sends, gives
 * each call of a creating operation one Idempotency-Key for all its attempts, repeats calls where
 * that is safe, and throws GatewayError for every failure. Types come from the API document.
 */
export class GatewayClient {
  readonly #settings: TransportSettings;

  constructor(options: GatewayClientOptions) {
    const baseUrl = new URL(options.baseUrl);
    // The signature covers the path the service sees, so the client sends paths from the root.
    if (baseUrl.pathname !== "/" || baseUrl.search) throw new TypeError(`baseUrl must be an origin such as https://pay.example.com, not ${options.baseUrl}`);
    this.#settings = {
      baseUrl: baseUrl.origin,
      publicId: options.publicId,
      secret: options.secret,
      fetch: options.fetch ?? globalThis.fetch,
      maxRetries: options.maxRetries ?? 3,
      timeoutMs: options.timeoutMs ?? 30_000,
      backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
  }

  /** Calls a POST operation by its path; resolves to its `result`. */
  async request<Path extends PostPath>(path: Path, ...args: PostArguments<Path>): Promise<Result<Path>> {
    return (await this.requestWithResponse(path, ...args)).result;
  }

  /** As `request`, with the status, request id, Idempotency-Key, replay flag and attempt count. */
  requestWithResponse<Path extends PostPath>(path: Path, ...args: PostArguments<Path>): Promise<ApiResponse<Result<Path>>> {
    const [body, options] = args as [unknown, OptionsFor<Path, "post"> | undefined];
    return this.#perform("POST", path, body ?? {}, options);
  }

  /** Calls a public GET operation by its path (`params` fills `{name}` segments). */
  async get<Path extends GetPath>(path: Path, ...args: GetArguments<Path>): Promise<Result<Path, "get">> {
    const [options] = args as [OptionsFor<Path, "get"> | undefined];
    return (await this.#perform<Result<Path, "get">>("GET", path, undefined, options)).result;
  }

  /**
   * Every item of a cursor-paged list, fetching pages as the loop needs them by following
   * `paginate.next_cursor`. Cursor-paged: the operations whose body takes `cursor` (payment
   * list and history, payout list, static wallet list, payment link list, …; the generated
   * OPERATIONS table marks them `cursorPaginated`). Lists paged by `limit`/`offset` (payout
   * links, batch items) are called with `request`.
   */
  async *paginate<Path extends CursorPath>(path: Path, filter?: PageFilter<Path>, options: Omit<CallOptions, "idempotencyKey"> = {}): AsyncGenerator<PageItem<Path>, void, undefined> {
    if (!factsOf("POST", path).cursorPaginated) throw new TypeError(`${path} does not page with a cursor`);
    let cursor: string | null = null;
    do {
      const body: Record<string, unknown> = { ...filter, ...(cursor === null ? {} : { cursor }) };
      const page = (await this.#perform<{ items: PageItem<Path>[]; paginate: { next_cursor?: string | null } }>("POST", path, body, options)).result;
      yield* page.items;
      const next = page.paginate.next_cursor ?? null;
      if (next !== null && next === cursor) throw new Error(`${path} answered the same cursor twice`);
      cursor = next;
    } while (cursor !== null);
  }

  async #perform<Value>(method: "GET" | "POST", path: string, body: unknown, options: (CallOptions & { params?: Record<string, unknown> }) | undefined): Promise<ApiResponse<Value>> {
    const facts = factsOf(method, path);
    const response = await sendWithRetries(this.#settings, {
      method,
      operationPath: path,
      requestPath: fillPath(path, options?.params),
      // Serialised once: these bytes are signed and sent by every attempt.
      body: method === "POST" ? new TextEncoder().encode(JSON.stringify(body)) : null,
      facts,
      idempotencyKey: options?.idempotencyKey ?? (facts.idempotent ? randomUUID() : null),
      signal: options?.signal,
    });
    const result = (facts.enveloped ? (response.body as { result?: unknown } | null)?.result : response.body) as Value;
    return { result, status: response.status, requestId: response.requestId, isReplayed: response.isReplayed, idempotencyKey: response.idempotencyKey, attempts: response.attempts };
  }

  /** A method for one POST operation, with its body and result types. */
  #post<Path extends PostPath>(path: Path): (...args: PostArguments<Path>) => Promise<Result<Path>> {
    return (...args) => this.request(path, ...args);
  }

  /** A method for a public operation keyed by one path segment (`/v1/pay/{id}` → `(id)`). */
  #getBy<Path extends GetPath>(path: Path, name: string): (value: string, options?: CallOptions) => Promise<Result<Path, "get">> {
    return (value, options) => this.#perform<Result<Path, "get">>("GET", path, undefined, { ...options, params: { [name]: value } }).then((response) => response.result);
  }

  /** A method for a public POST keyed by one path segment (`/v1/claim/{token}` → `(token, body)`). */
  #postBy<Path extends PostPath>(path: Path, name: string): (value: string, body: RequestBody<Path>, options?: CallOptions) => Promise<Result<Path>> {
    return (value, body, options) => this.#perform<Result<Path>>("POST", path, body ?? {}, { ...options, params: { [name]: value } }).then((response) => response.result);
  }

  /** Invoices. */
  readonly payments = {
    create: this.#post("/v1/payment"),
    info: this.#post("/v1/payment/info"),
    list: this.#post("/v1/payment/list"),
    history: this.#post("/v1/payment/history"),
    resend: this.#post("/v1/payment/resend"),
    sendEmail: this.#post("/v1/payment/send-email"),
    qr: this.#post("/v1/payment/qr"),
    /** The public card of an invoice, as the hosted page shows it (no signature). */
    hosted: this.#getBy("/v1/pay/{id}", "id"),
  };

  readonly refunds = {
    create: this.#post("/v1/payment/refund"),
    resolve: this.#post("/v1/payment/resolve"),
  };

  readonly payouts = {
    create: this.#post("/v1/payout"),
    info: this.#post("/v1/payout/info"),
    list: this.#post("/v1/payout/list"),
    approve: this.#post("/v1/payout/approve"),
    cancel: this.#post("/v1/payout/cancel"),
    calculate: this.#post("/v1/payout/calculate"),
    balance: this.#post("/v1/balance"),
  };

  /** Static wallets: permanent deposit addresses. */
  readonly wallets = {
    create: this.#post("/v1/wallet"),
    info: this.#post("/v1/wallet/info"),
    list: this.#post("/v1/wallet/list"),
    qr: this.#post("/v1/wallet/qr"),
    block: this.#post("/v1/wallet/block"),
  };

  readonly paymentLinks = {
    create: this.#post("/v1/payment/link"),
    info: this.#post("/v1/payment/link/info"),
    list: this.#post("/v1/payment/link/list"),
    toggle: this.#post("/v1/payment/link/toggle"),
    /** The public card of a link (no signature). */
    card: this.#getBy("/v1/link/{id}", "id"),
    /** Makes an invoice from a link, as a buyer does (no signature). */
    checkout: this.#postBy("/v1/link/{id}/checkout", "id"),
  };

  /** Payout links (crypto checks); they need a payout or unified key. */
  readonly payoutLinks = {
    create: this.#post("/v1/payout/link"),
    createMany: this.#post("/v1/payout/link/batch"),
    info: this.#post("/v1/payout/link/info"),
    list: this.#post("/v1/payout/link/list"),
    cancel: this.#post("/v1/payout/link/cancel"),
    /** The public claim card of a token (no signature). */
    card: this.#getBy("/v1/claim/{token}", "token"),
    /** Claims a check to an address, as its recipient does (no signature). */
    claim: this.#postBy("/v1/claim/{token}", "token"),
  };

  /** Asynchronous batches of up to 5000 items; poll `info`. */
  readonly batches = {
    createPayments: this.#post("/v1/payment/batch"),
    createPayouts: this.#post("/v1/payout/batch"),
    createRefunds: this.#post("/v1/refund/batch"),
    info: this.#post("/v1/batch/info"),
  };

  /** The webhook endpoint and its deliveries. */
  readonly webhooks = {
    register: this.#post("/v1/webhooks"),
    info: this.#post("/v1/webhooks/info"),
    rotateSecret: this.#post("/v1/webhooks/rotate-secret"),
    deliveries: this.#post("/v1/webhooks/deliveries"),
  };

  /** Webhook events of the last 30 days, delivered or not; `paginate("/v1/events/list", filter)` walks them. */
  readonly events = {
    list: this.#post("/v1/events/list"),
    info: this.#post("/v1/events/info"),
    redeliver: this.#post("/v1/events/redeliver"),
  };

  readonly catalogue = {
    /** The public currency catalogue (no signature). */
    currencies: (options?: CallOptions) => this.get("/v1/currencies", options),
    paymentServices: this.#post("/v1/payment/services"),
    payoutServices: this.#post("/v1/payout/services"),
    exchangeRates: this.#post("/v1/exchange-rate/list"),
  };
}
