import net from "node:net";
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

const HEADER_END = Buffer.from("\r\n\r\n");

/** The caller waiting for the response being read on a connection. */
interface PendingResponse {
  resolve(status: number): void;
  reject(error: Error): void;
}

/**
 * One keep-alive connection speaking just enough HTTP/1.1 for the benchmark (a request written
 * as one buffer, a response read by Content-Length or chunked framing), as wrk does: the
 * generator shares this machine's two cores with the service and PostgreSQL, and with Node's
 * http client it left the service less of them (signed reads 2420 against 3386 req/s, back to back).
 */
class LoadConnection {
  private readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: PendingResponse | null = null;
  private failure: Error | null = null;

  constructor(private readonly url: URL) {
    this.socket = net.connect({ host: url.hostname, port: Number(url.port || 80), noDelay: true });
    this.socket.on("data", (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.readResponse();
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      this.pending?.reject(error);
      this.pending = null;
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(new Error("connection closed")));
  }

  get usable(): boolean {
    return this.failure === null;
  }

  send(method: string, headers: Record<string, string>, body: string | undefined): Promise<number> {
    if (this.failure) return Promise.reject(this.failure);
    let head = `${method} ${this.url.pathname}${this.url.search} HTTP/1.1\r\nhost: ${this.url.host}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    const payload = body === undefined ? "" : body;
    head += `content-length: ${Buffer.byteLength(payload)}\r\n\r\n`;
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(head + payload);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private readResponse(): void {
    if (!this.pending) return;
    const headerEnd = this.buffered.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = this.buffered.toString("latin1", 0, headerEnd);
    const status = Number(head.slice(9, 12));
    const bodyStart = headerEnd + HEADER_END.length;
    const declared = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let responseEnd: number;
    if (declared) {
      responseEnd = bodyStart + Number(declared[1]);
      if (this.buffered.length < responseEnd) return;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const end = chunkedBodyEnd(this.buffered, bodyStart);
      if (end < 0) return;
      responseEnd = end;
    } else {
      responseEnd = bodyStart;
    }
    this.buffered = this.buffered.subarray(responseEnd);
    const { resolve } = this.pending;
    this.pending = null;
    resolve(status);
  }
}

/** Where a chunked body that starts at `offset` ends, or -1 while it has not all arrived. */
function chunkedBodyEnd(buffer: Buffer, offset: number): number {
  let position = offset;
  for (;;) {
    const lineEnd = buffer.indexOf("\r\n", position);
    if (lineEnd < 0) return -1;
    const size = parseInt(buffer.toString("latin1", position, lineEnd), 16);
    if (size === 0) {
      const trailerEnd = buffer.indexOf(HEADER_END, lineEnd);
      return trailerEnd < 0 ? -1 : trailerEnd + HEADER_END.length;
    }
    position = lineEnd + 2 + size + 2;
    if (position > buffer.length) return -1;
  }
}

/** Closed-loop load: `concurrency` clients each sending the next request as soon as the last answers. */
export async function runLoad(target: LoadTarget, options: { concurrency: number; seconds: number; warmupSeconds: number }): Promise<LoadResult> {
  const isSuccess = target.isSuccess ?? ((status: number) => status === 200);
  const latencies: number[] = [];
  let errors = 0;
  const errorsByStatus: Record<string, number> = {};
  const warmupEnd = Date.now() + options.warmupSeconds * 1000;
  const end = warmupEnd + options.seconds * 1000;
  const urls = typeof target.url === "string" ? [target.url] : target.url;
  const client = async (clientIndex: number) => {
    const url = new URL(urls[clientIndex % urls.length]);
    let connection = new LoadConnection(url);
    while (Date.now() < end) {
      if (!connection.usable) {
        connection.close();
        connection = new LoadConnection(url);
      }
      const started = performance.now();
      let status = "network";
      let ok = false;
      try {
        const { headers, body } = target.prepare();
        const code = await connection.send(target.method, headers, body);
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
    connection.close();
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, clientIndex) => client(clientIndex)));
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
