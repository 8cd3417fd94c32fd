import { ChainError } from "@/lib/chains/types";

/** Default deadline for one call to the API (TonClient's own HTTP timeout is 5 s by default). */
export const DEFAULT_TON_TIMEOUT_MS = 15_000;

/**
 * Runs one access-layer call with a deadline. A `ChainError` passes through as the layer
 * classified it; anything else (HTTP errors, 429 from a rate-limited API, a hung request, an
 * external message the node did not accept yet) becomes a retryable `ChainError`.
 */
export async function callTonAccess<T>(what: string, timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChainError(`ton: ${what} timed out after ${timeoutMs} ms`, { retryable: true })), timeoutMs);
  });
  try {
    // Promise.resolve().then(...) also turns a synchronous throw of the layer into a rejection.
    return await Promise.race([Promise.resolve().then(call), deadline]);
  } catch (error) {
    if (error instanceof ChainError) throw error;
    throw new ChainError(`ton: ${what} failed`, { retryable: true, cause: error });
  } finally {
    clearTimeout(timer);
  }
}
