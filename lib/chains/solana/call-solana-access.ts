import { ChainError } from "@/lib/chains/types";

/** Default deadline for one call to the node. */
export const DEFAULT_SOLANA_TIMEOUT_MS = 15_000;

/**
 * Runs one access-layer call with a deadline. A `ChainError` passes through as the layer
 * classified it; anything else (socket errors, HTTP 5xx, 429, a hung request, a bug in the
 * layer) becomes a retryable `ChainError`: the next pass may well succeed, and the watcher and
 * payout jobs retry on retryable errors.
 */
export async function callSolanaAccess<T>(what: string, timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChainError(`solana: ${what} timed out after ${timeoutMs} ms`, { retryable: true })), timeoutMs);
  });
  try {
    // Promise.resolve().then(...) also turns a synchronous throw of the layer into a rejection.
    return await Promise.race([Promise.resolve().then(call), deadline]);
  } catch (error) {
    if (error instanceof ChainError) throw error;
    throw new ChainError(`solana: ${what} failed`, { retryable: true, cause: error });
  } finally {
    clearTimeout(timer);
  }
}
