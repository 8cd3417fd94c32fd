import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { createCachedHostResolver } from "@/lib/net/cached-host-resolver";
import { OutboundUrlError, vetOutboundUrl, type VettedUrl } from "@/lib/net/outbound-url";

export interface SendResult {
  /** True for a 2xx answer. */
  isDelivered: boolean;
  statusCode?: number;
  /** Why the attempt failed, for the deliveries log; never the response body. */
  error?: string;
  durationMs: number;
}

export interface SendOptions {
  allowLoopback: boolean;
  timeoutMs: number;
}

/** At most this much of a response is read (and discarded): receivers answer with anything. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** A kept-alive connection idle this long is closed (sooner when the receiver's Keep-Alive hint asks). */
const IDLE_CONNECTION_MS = 4_000;
/** Idle connections kept per receiver; more in flight than this are closed when they finish. */
const MAX_IDLE_CONNECTIONS_PER_RECEIVER = 16;
/** Receivers with a pool at once; beyond it, pools with nothing in flight are dropped. */
const MAX_RECEIVER_POOLS = 1_000;

const resolveHost = createCachedHostResolver();
const connectionPools = new Map<string, http.Agent>();

/**
 * The keep-alive pool for one receiver, so consecutive deliveries reuse a TCP (and TLS)
 * connection. Keyed by the checked address as well as the origin: a pooled connection only
 * ever leads to an address that passed the SSRF rule, even after the host's DNS answer changes.
 */
function getConnectionPool(vetted: VettedUrl): http.Agent {
  const key = `${vetted.url.protocol}//${vetted.url.host} ${vetted.address}`;
  let pool = connectionPools.get(key);
  if (!pool) {
    if (connectionPools.size >= MAX_RECEIVER_POOLS) closeIdlePools();
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, maxFreeSockets: MAX_IDLE_CONNECTIONS_PER_RECEIVER, scheduling: "lifo" as const };
    pool = vetted.url.protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    connectionPools.set(key, pool);
  }
  return pool;
}

function closeIdlePools(): void {
  for (const [key, pool] of connectionPools) {
    const isBusy = Object.values(pool.sockets).some((sockets) => sockets && sockets.length > 0);
    if (!isBusy) {
      pool.destroy();
      connectionPools.delete(key);
    }
  }
}

/** Errors of a kept-alive connection that the receiver closed while it was idle. */
const STALE_CONNECTION_ERRORS = new Set(["ECONNRESET", "EPIPE"]);

/**
 * POSTs a JSON body to a merchant URL. The URL passes the SSRF rule at send time, and the
 * connection goes to exactly the address that was checked (no second DNS answer can redirect
 * it). Redirects are not followed. Never throws: every outcome is a SendResult.
 */
export async function sendWebhookRequest(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let vetted: VettedUrl;
  try {
    vetted = await vetOutboundUrl(url, { allowLoopback: options.allowLoopback, resolve: resolveHost });
  } catch (error) {
    const reason = error instanceof OutboundUrlError ? error.message : "the URL could not be checked";
    return { isDelivered: false, error: `refused: ${reason}`, durationMs: elapsed() };
  }
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions && (lookupOptions as { all?: boolean }).all) {
      (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: vetted.address, family: vetted.family }]);
    } else {
      callback(null, vetted.address, vetted.family);
    }
  };
  const transport = vetted.url.protocol === "https:" ? https : http;
  const requestHeaders = { ...headers, "content-length": String(Buffer.byteLength(body)), "user-agent": "Gateway-Webhooks/1" };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let current: http.ClientRequest | undefined;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const send = (agent: http.Agent | false) => {
      let isAnswered = false;
      const request = transport.request(vetted.url, { method: "POST", lookup: pinnedLookup, headers: requestHeaders, agent }, (response) => {
        isAnswered = true;
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        const statusCode = response.statusCode ?? 0;
        const done = () =>
          finish(statusCode >= 200 && statusCode < 300 ? { isDelivered: true, statusCode } : { isDelivered: false, statusCode, error: `HTTP ${statusCode}` });
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      });
      current = request;
      request.on("error", (error: NodeJS.ErrnoException) => {
        // The receiver closed a pooled connection just as it was reused: nothing was answered, so
        // send once more on a fresh connection instead of failing the attempt.
        if (!settled && !isAnswered && agent && request.reusedSocket && STALE_CONNECTION_ERRORS.has(error.code ?? "")) return send(false);
        finish({ isDelivered: false, error: `network error: ${error.code ?? error.message}` });
      });
      request.end(body);
    };
    // One deadline for the whole exchange, so a receiver that trickles bytes cannot hold a slot.
    const timer = setTimeout(() => {
      current?.destroy(new Error("timeout"));
      finish({ isDelivered: false, error: `timeout after ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    send(getConnectionPool(vetted));
  });
}
