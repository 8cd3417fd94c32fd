import http from "node:http";
import { createHmac } from "node:crypto";

export interface LoadResult {
  label: string;
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadTarget {
  label: string;
  method: "GET" | "POST";
  url: string;
  /** Builds each request's headers and body (so signed requests carry fresh timestamps). */
  prepare(): { headers: Record<string, string>; body?: string };
  /** A response counts as success when this holds (default: status 200). */
  isSuccess?(status: number): boolean;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function send(agent: http.Agent, target: LoadTarget): Promise<number> {
  const { headers, body } = target.prepare();
  return new Promise((resolve, reject) => {
    const request = http.request(target.url, { method: target.method, agent, headers }, (response) => {
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
  const warmupEnd = Date.now() + options.warmupSeconds * 1000;
  const end = warmupEnd + options.seconds * 1000;
  const client = async () => {
    while (Date.now() < end) {
      const started = performance.now();
      let ok = false;
      try {
        ok = isSuccess(await send(agent, target));
      } catch {
        ok = false;
      }
      const elapsed = performance.now() - started;
      if (Date.now() > warmupEnd) {
        if (ok) latencies.push(elapsed);
        else errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    label: target.label,
    requests: latencies.length,
    errors,
    seconds: options.seconds,
    requestsPerSecond: latencies.length / options.seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

/** Headers of a signed POST as an integrator computes them. */
export function signedHeaders(key: { public_id: string; secret: string }, path: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", key.secret).update(`${timestamp}\nPOST\n${path}\n${body}`).digest("hex");
  return { "content-type": "application/json", "x-public-id": key.public_id, "x-timestamp": timestamp, "x-signature": signature };
}
