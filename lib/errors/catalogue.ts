/**
 * Every error code the API can answer, as data: code → HTTP status → default message.
 * The codes are the spec's `<domain>.<reason>` strings; codes the spec leaves open
 * ("not shown") are designed in the same style and listed in the README.
 */
export const ERROR_CATALOGUE = {
  // Transport and request
  "request.bad_json": { status: 400, message: "The request body is not valid JSON." },
  "request.too_large": { status: 413, message: "The request body exceeds 1 MiB." },
  "request.not_found": { status: 404, message: "No operation exists at this path." },
  "request.method_not_allowed": { status: 405, message: "This operation does not accept this HTTP method." },
  "request.rate_limited": { status: 429, message: "Too many requests; retry after the interval in Retry-After." },
  "internal.error": { status: 500, message: "An internal error occurred; the request may be retried." },

  // Authentication
  "auth.bad_timestamp": { status: 401, message: "X-Timestamp is missing or not a number." },
  "auth.ip_not_allowed": { status: 401, message: "The source IP address is not in the merchant's allow-list." },
  "auth.body_read": { status: 400, message: "The request body could not be read; the request is safe to retry." },
  "merchant.bad_signature": { status: 401, message: "The signature does not match or the timestamp is outside the 5-minute window." },
  "merchant.unknown_key": { status: 401, message: "The API key is unknown or revoked." },
  "merchant.wrong_key_kind": { status: 403, message: "This API key kind may not call this operation." },

  // Idempotency
  "idempotency.in_progress": { status: 409, message: "A request with this Idempotency-Key is still running; retry later with the same key." },
  "idempotency.bad_key": { status: 400, message: "Idempotency-Key must be 1 to 255 characters." },
  "idempotency.unavailable": { status: 503, message: "The request was not executed; retry with the same Idempotency-Key." },

  // Catalogue-side payment codes
  "payment.unknown_currency": { status: 400, message: "The currency is not supported." },
  "payment.unknown_to_currency": { status: 400, message: "The settlement currency is not supported." },
  "payment.unsupported_network": { status: 400, message: "The network is not supported for this currency." },
  "payment.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "payout.bad_request": { status: 400, message: "The request body does not match the operation's schema." },

  // Exchange rates
  "rate.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "rate.unavailable": { status: 503, message: "No exchange-rate source can be reached; retry with backoff." },

  // Webhooks
  "webhook.no_url": { status: 400, message: "url_callback is required." },
  "webhook.bad_url": { status: 400, message: "The URL must be an http(s) URL that does not point at a private or metadata address." },
  "webhook.no_endpoint": { status: 400, message: "No webhook endpoint is registered; register one or pass a url." },
  "webhook.test_failed": { status: 503, message: "The test webhook could not be delivered: the endpoint did not answer." },
  "webhook.bad_status": { status: 400, message: "The status is not one of this event family's statuses." },
  "webhook.bad_overlap": { status: 400, message: "overlap_hours must be a whole number from 0 to 168." },
  "webhook.bad_request": { status: 400, message: "The request body does not match the operation's schema." },

  // IP allow-list
  "apiallow.bad_cidr": { status: 400, message: "The value is not an IPv4/IPv6 address or CIDR range." },
  "apiallow.empty": { status: 400, message: "The allow-list cannot be enabled while it is empty." },
  "apiallow.bad_enabled": { status: 400, message: "`enabled` must be a boolean." },
  "apiallow.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "apiallow.not_found": { status: 404, message: "The entry is not in the allow-list." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}
