/**
 * A failure of a rate source: network error, timeout, bad HTTP status or unreadable answer.
 * Services turn it into the documented 503 codes (`invoice.quote_failed`, `payout.convert_no_rate`).
 * The message names the source and the kind of failure only, never the provider's response body.
 */
export class RateSourceError extends Error {
  /** Whether trying again later may succeed (timeouts, 5xx, garbled answers). */
  readonly retryable: boolean;
  /** Name of the rate source that failed, e.g. "coinbase". */
  readonly source: string;

  constructor(message: string, options: { retryable: boolean; source: string; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RateSourceError";
    this.retryable = options.retryable;
    this.source = options.source;
  }
}
