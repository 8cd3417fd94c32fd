/**
 * Token buckets per caller (merchant for signed calls, client IP for public ones), kept in
 * this process's memory. A batch is one request, like any other call.
 */
export interface RateLimiter {
  /** Takes one token; returns 0 when allowed, else the whole seconds to wait. */
  take(callerKey: string, nowMs: number): number;
}

export function createRateLimiter(options: { requestsPerSecond: number; burst: number; maxCallers?: number }): RateLimiter {
  const buckets = new Map<string, { tokens: number; updatedAtMs: number }>();
  const maxCallers = options.maxCallers ?? 100_000;
  return {
    take(callerKey, nowMs) {
      let bucket = buckets.get(callerKey);
      if (!bucket) {
        if (buckets.size >= maxCallers) buckets.clear(); // bounded memory; a reset only ever lets calls through
        bucket = { tokens: options.burst, updatedAtMs: nowMs };
        buckets.set(callerKey, bucket);
      }
      const elapsedSeconds = Math.max(0, nowMs - bucket.updatedAtMs) / 1000;
      bucket.tokens = Math.min(options.burst, bucket.tokens + elapsedSeconds * options.requestsPerSecond);
      bucket.updatedAtMs = nowMs;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / options.requestsPerSecond));
    },
  };
}
