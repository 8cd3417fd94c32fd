import { ChainError } from "@/lib/chains/types";

/** Default deadline for one call to a node or its HTTP API (TonClient's own HTTP timeout is 5 s by default). */
export const DEFAULT_ACCESS_TIMEOUT_MS = 15_000;

/**
 * Runs one call of a family's access layer (Solana, TON) with a deadline. A `ChainError` passes
 * through as the layer classified it; anything else (socket errors, HTTP 5xx, 429 from a
 * rate-limited API, a hung request, an external message the node did not accept yet, a bug in
 * the layer) becomes a retryable `ChainError`: the next pass may well succeed, and the watcher
 * and payout jobs retry on retryable errors.
 */
export async function callChainAccess<T>(family: string, what: string, timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChainError(`${family}: ${what} timed out after ${timeoutMs} ms`, { retryable: true })), timeoutMs);
  });
  try {
    // Promise.resolve().then(...) also turns a synchronous throw of the layer into a rejection.
    return await Promise.race([Promise.resolve().then(call), deadline]);
  } catch (error) {
    if (error instanceof ChainError) throw error;
    throw new ChainError(`${family}: ${what} failed`, { retryable: true, cause: error });
  } finally {
    clearTimeout(timer);
  }
}
