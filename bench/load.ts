import http from "node:http";
import { createHmac } from "node:crypto";

export interface LoadResult {
  label: string;
  requests: number;
  errors: number;
  /** Failed requests by HTTP status ("network" when no answer came). */
  errorsByStatus?: Record<string, number>;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadTarget {
  label: string;
  method: "GET" | "POST";
  /** With several URLs (one per web process), client i keeps to URL i mod n, as a load balancer spreads keep-alive connections. */
  url: string | string[];
  /** Builds each request's headers and body (so signed requests carry fresh timestamps). */
  prepare(): { headers: Record<string, string>; body?: string };
  /** A response counts as success when this holds (default: status 200). */
  isSuccess?(status: number): boolean;
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function send(agent: http.Agent, target: LoadTarget, url: string): Promise<number> {
  const { headers, body } = target.prepare();
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: target.method, agent, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
    if (body !== undefined) request.end(body);
    else request.end();
  });
}

/** Closed-loop load: `concurrency` clients each sending the next request as soon as the last answers. */
export async function runLoad(target: LoadTarget, options: { concurrency: number; seconds: number; warmupSeconds: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const isSuccess = target.isSuccess ?? ((status: number) => status === 200);
  const latencies: number[] = [];
  let errors = 0;
  const errorsByStatus: Record<string, number> = {};
  const warmupEnd = Date.now() + options.warmupSeconds * 1000;
  const end = warmupEnd + options.seconds * 1000;
  const urls = typeof target.url === "string" ? [target.url] : target.url;
  const client = async (clientIndex: number) => {
    const url = urls[clientIndex % urls.length];
    while (Date.now() < end) {
      const started = performance.now();
      let status = "network";
      let ok = false;
      try {
        const code = await send(agent, target, url);
        status = String(code);
        ok = isSuccess(code);
      } catch {
        ok = false;
      }
      const elapsed = performance.now() - started;
      if (Date.now() > warmupEnd) {
        if (ok) latencies.push(elapsed);
        else {
          errors++;
          errorsByStatus[status] = (errorsByStatus[status] ?? 0) + 1;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, clientIndex) => client(clientIndex)));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    label: target.label,
    requests: latencies.length,
    errors,
    errorsByStatus,
    seconds: options.seconds,
    requestsPerSecond: latencies.length / options.seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

/** The API key a load signs with. */
export interface BenchKey {
  public_id: string;
  secret: string;
}

export const SIGNED_READ_PATH = "/v1/api-allowlist/list";
const INVOICE_BODY = JSON.stringify({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron" });

/** The signed read of the benchmark: HMAC check, key lookup and a small list, on one web process or several. */
export function signedReadTarget(baseUrls: string | string[], key: BenchKey): LoadTarget {
  return {
    label: `signed read (POST ${SIGNED_READ_PATH})`,
    method: "POST",
    url: typeof baseUrls === "string" ? baseUrls + SIGNED_READ_PATH : baseUrls.map((baseUrl) => baseUrl + SIGNED_READ_PATH),
    prepare: () => ({ headers: signedHeaders(key, SIGNED_READ_PATH, "{}"), body: "{}" }),
  };
}

/** Invoice creation as the benchmark measures it: USD priced, USDT on Tron (a sandbox chain). */
export function createInvoiceTarget(baseUrls: string | string[], key: BenchKey): LoadTarget {
  return {
    label: "create invoice (POST /v1/payment, USDT on tron)",
    method: "POST",
    url: typeof baseUrls === "string" ? `${baseUrls}/v1/payment` : baseUrls.map((baseUrl) => `${baseUrl}/v1/payment`),
    prepare: () => ({ headers: signedHeaders(key, "/v1/payment", INVOICE_BODY), body: INVOICE_BODY }),
  };
}

/** Headers of a signed POST as an integrator computes them. */
export function signedHeaders(key: BenchKey, path: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", key.secret).update(`${timestamp}\nPOST\n${path}\n${body}`).digest("hex");
  return { "content-type": "application/json", "x-public-id": key.public_id, "x-timestamp": timestamp, "x-signature": signature };
}
