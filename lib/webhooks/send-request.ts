import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { OutboundUrlError, vetOutboundUrl } from "@/lib/net/outbound-url";

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

/**
 * POSTs a JSON body to a merchant URL. The URL passes the SSRF rule at send time, and the
 * connection goes to exactly the address that was checked (no second DNS answer can redirect
 * it). Redirects are not followed. Never throws: every outcome is a SendResult.
 */
export async function sendWebhookRequest(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let vetted;
  try {
    vetted = await vetOutboundUrl(url, { allowLoopback: options.allowLoopback });
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
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = transport.request(
      vetted.url,
      {
        method: "POST",
        lookup: pinnedLookup,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)), "user-agent": "Gateway-Webhooks/1" },
        agent: false,
      },
      (response) => {
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
      },
    );
    // One deadline for the whole exchange, so a receiver that trickles bytes cannot hold a slot.
    const timer = setTimeout(() => {
      request.destroy(new Error("timeout"));
      finish({ isDelivered: false, error: `timeout after ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    request.on("error", (error) => finish({ isDelivered: false, error: `network error: ${(error as NodeJS.ErrnoException).code ?? error.message}` }));
    request.end(body);
  });
}
