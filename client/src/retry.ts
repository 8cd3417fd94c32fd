/** The backoff between attempts of one call. */
export interface BackoffOptions {
  /** The ceiling of the first wait, in milliseconds; doubles each attempt. Default 500. */
  baseMs: number;
  /** The largest wait, in milliseconds. A Retry-After longer than this is not waited for. Default 20000. */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 20_000 };

/**
 * Exponential backoff with full jitter: a uniform wait between 0 and min(cap, base × 2^retry),
 * so that clients refused together do not come back together. `retry` counts from 0.
 * Example: base 500, cap 20000, retry 2, random 0.5 → 1000 ms.
 */
export function backoffDelayMs(retry: number, backoff: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Retry-After (delta seconds or an HTTP date) in milliseconds from `nowMs`; null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === "") return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
