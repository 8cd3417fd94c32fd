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
  "request.busy": { status: 503, message: "The service is busy; nothing was done. Retry with backoff (and the same Idempotency-Key)." },

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
  "idempotency.key_reused": { status: 422, message: "This Idempotency-Key was used with a different request body." },
  "idempotency.unavailable": { status: 503, message: "The request was not executed; retry with the same Idempotency-Key." },

  // Invoices
  "payment.unknown_currency": { status: 400, message: "The currency is not supported." },
  "payment.unknown_to_currency": { status: 400, message: "The settlement currency is not supported." },
  "payment.to_currency_required": { status: 400, message: "A fiat price needs to_currency when network is set." },
  "payment.network_required": { status: 400, message: "This coin is on several networks: set network." },
  "payment.unsupported_network": { status: 400, message: "The network is not supported for this currency." },
  "payment.bad_amount": { status: 400, message: "amount must be a positive decimal string with at most the currency's decimals." },
  "payment.bad_subtract": { status: 400, message: "subtract must be a whole number from 0 to 100." },
  "payment.bad_accuracy": { status: 400, message: "accuracy_payment_percent must be from 0 to 5." },
  "payment.below_minimum": { status: 400, message: "The amount is below the network's minimum." },
  "payment.bad_url_callback": { status: 400, message: "url_callback must be an http(s) URL that does not point at a private or metadata address." },
  "payment.bad_uuid": { status: 400, message: "uuid is not a UUID." },
  "payment.no_lookup": { status: 400, message: "Give uuid or order_id." },
  "payment.not_found": { status: 404, message: "No such payment." },
  "payment.bad_cursor": { status: 400, message: "The cursor is not one this service returned." },
  "payment.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "invoice.bad_price": { status: 400, message: "The price cannot be converted into the settlement currency." },
  "invoice.no_pay_asset": { status: 400, message: "The invoice has no settlement asset yet." },
  "invoice.not_selectable": { status: 400, message: "The invoice is not waiting for a selection." },
  "invoice.expired": { status: 400, message: "The invoice has expired; create a new one." },
  "invoice.generation_stale": { status: 409, message: "The invoice changed meanwhile; re-read it and retry." },
  "invoice.quote_failed": { status: 503, message: "No exchange rate could be had; retry with backoff." },
  "invoice.fee_quote_failed": { status: 503, message: "The fee could not be quoted; the invoice was not created. Retry with backoff." },
  "invoice.address_failed": { status: 503, message: "No deposit address could be allocated; retry with backoff." },

  // Hosted payment page
  "pay.bad_uuid": { status: 400, message: "The invoice id is not a UUID." },
  "pay.not_found": { status: 404, message: "No such invoice." },
  "pay.not_selectable": { status: 400, message: "The invoice is not waiting for a coin and network." },
  "pay.unknown_currency": { status: 400, message: "The currency is not supported." },
  "pay.method_not_accepted": { status: 400, message: "The merchant does not accept this coin and network." },
  "pay.below_minimum": { status: 400, message: "The amount is below this network's minimum." },
  "pay.not_payable": { status: 400, message: "The invoice is not waiting for a payment." },
  "pay.bad_request": { status: 400, message: "The request body does not match the operation's schema." },

  // Accepted currencies, e-mail, batches, sandbox
  "accepted.unknown_currency": { status: 400, message: "The currency is not a settlement currency." },
  "accepted.no_network": { status: 400, message: "The network is missing or does not carry this currency." },
  "email.no_recipient": { status: 400, message: "No recipient: give email, or create the invoice with payer_email." },
  "email.bad_address": { status: 400, message: "email is not an e-mail address." },
  "email.disabled": { status: 503, message: "E-mail is not configured on this service." },
  "balance.bad_request": { status: 400, message: "The balance request is malformed." },
  "balance.unknown_currency": { status: 400, message: "The currency is not a settlement currency." },
  "balance.unknown_network": { status: 400, message: "The network does not carry this currency." },
  "batch.empty": { status: 400, message: "The batch has no elements." },
  "batch.too_large": { status: 400, message: "The batch has more than 5000 elements." },
  "batch.bad_id": { status: 400, message: "batch_id is not a UUID." },
  "batch.not_found": { status: 404, message: "No such batch." },
  "batch.disabled": { status: 503, message: "Batches are not available right now." },
  "batch.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "sandbox.not_sandbox": { status: 400, message: "This network is served by a real node, not a sandbox chain." },
  "sandbox.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "sandbox.unknown_network": { status: 400, message: "The network or currency is not in the catalogue." },
  "sandbox.bad_address": { status: 400, message: "The address is not valid on this network." },
  "sandbox.bad_amount": { status: 400, message: "amount must be a positive decimal string within the asset's decimals." },
  "sandbox.not_found": { status: 404, message: "No such invoice or payout link." },
  "payout.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "payout.unknown_currency": { status: 400, message: "The currency is not paid out by this service." },
  "payout.bad_amount": { status: 400, message: "amount must be a positive decimal string within the asset's decimals." },
  "payout.order_id_required": { status: 400, message: "order_id is required: it makes the payout idempotent." },
  "payout.destination_internal": { status: 400, message: "The address belongs to this service; pay out to an outside address." },
  "payout.from_currency_unsupported": { status: 400, message: "from_currency may only be USDT." },
  "payout.convert_same_asset": { status: 400, message: "from_currency is the payout's own currency." },
  "payout.convert_bad_amount": { status: 400, message: "The amount cannot be converted." },
  "payout.convert_unsupported": { status: 400, message: "This conversion is not offered." },
  "payout.memo_too_long": { status: 400, message: "memo is longer than 120 characters." },
  "payout.memo_unsupported": { status: 400, message: "Transfers on this network carry no memo." },
  "payout.bad_url_callback": { status: 400, message: "url_callback is not an acceptable http(s) URL." },
  "payout.no_destination": { status: 400, message: "The destination is incomplete: an address (and a network where the coin has several) is required." },
  "payout.bad_address": { status: 400, message: "The address is not valid on the network." },
  "payout.address_network_mismatch": { status: 400, message: "The address belongs to another network." },
  "payout.asset_mismatch": { status: 400, message: "The network does not carry this currency." },
  "payout.amount_below_fee": { status: 400, message: "The amount does not exceed the payout fee the recipient would bear." },
  "payout.bad_uuid": { status: 400, message: "uuid is not a UUID." },
  "payout.no_lookup": { status: 400, message: "Give uuid or order_id." },
  "payout.bad_cursor": { status: 400, message: "cursor is not a cursor this list gave." },
  "payout.empty_batch": { status: 400, message: "payouts is empty." },
  "payout.batch_too_large": { status: 400, message: "payouts has more than 100 elements." },
  "payout.not_found": { status: 404, message: "No such payout." },
  "payout.approver_is_creator": { status: 403, message: "A manual payout is approved by another key or user than its creator." },
  "payout.frozen": { status: 409, message: "Payouts are frozen after a new payout key; retry when the freeze lifts." },
  "payout.insufficient_funds": { status: 409, message: "The available balance does not cover the payout." },
  "payout.funds_maturing": { status: 409, message: "The amount will be available once credited funds mature; retry later with the same order_id." },
  "payout.convert_frozen": { status: 409, message: "Conversion is frozen; retry later." },
  "payout.convert_insufficient": { status: 409, message: "The USDT balance does not cover the conversion." },
  "payout.duplicate_reference": { status: 409, message: "order_id names a payout made with other terms." },
  "payout.not_pending": { status: 409, message: "Only a pending payout can be approved, rejected or cancelled." },
  "payout.convert_no_rate": { status: 503, message: "No exchange rate is available now; retry later." },
  "payout.network_unavailable": { status: 503, message: "The network's node is not ready; retry later." },
  "autowithdraw.unknown_currency": { status: 400, message: "The currency is not a settlement asset on this network." },
  "autowithdraw.bad_min": { status: 400, message: "min must be a non-negative decimal in the asset's units." },
  "autowithdraw.missing": { status: 400, message: "A required field is missing." },
  "autowithdraw.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  // Split rules
  "split.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "split.bad_destination": { status: 400, message: "Give exactly one recipient: address with network, or merchant_id." },
  "split.network_required": { status: 400, message: "network is required with address, and must be a network of the catalogue." },
  "split.bad_percent": { status: 400, message: "percent must be a number above 0 and at most 100, in steps of 0.01." },
  "split.exceeds_100": { status: 400, message: "The merchant's split rules would add up to more than 100 percent." },
  "split.bad_merchant": { status: 400, message: "merchant_id is not a merchant of this service." },
  "split.self_destination": { status: 400, message: "A split cannot go to the merchant itself or to an address of this service." },
  "split.bad_note": { status: 400, message: "note must be at most 255 characters." },
  "split.bad_id": { status: 400, message: "rule_id is not a UUID." },
  "split.bad_hold_hours": { status: 400, message: "refund_hold_hours must be a whole number from 0 to 2160." },
  "split.not_found": { status: 404, message: "No such split rule." },
  "split.disabled": { status: 503, message: "Split rules are turned off on this service." },

  "compliance.blocked": { status: 403, message: "The destination failed compliance screening." },
  "compliance.unavailable": { status: 503, message: "Compliance screening did not answer; nothing was sent. Retry later." },
  "payment.not_resolvable": { status: 409, message: "The payment needs no decision, or was resolved already." },
  "refund.bad_request": { status: 400, message: "The request body does not match the operation's schema." },
  "refund.no_address": { status: 400, message: "The payer's address is not known: give address." },
  "refund.bad_amount": { status: 400, message: "amount must be a positive decimal string within the asset's decimals." },
  "refund.nothing_to_refund": { status: 400, message: "The payment has nothing left to refund." },
  "refund.dust": { status: 400, message: "The amount does not exceed the network fee of sending it." },
  "refund.destination_internal": { status: 400, message: "The address belongs to this service; refund to an outside address." },
  "refund.exceeds_refundable": { status: 400, message: "The amount exceeds what is left to refund of the payment." },
  "refund.exceeds_excess": { status: 400, message: "The amount exceeds the overpaid excess." },
  "refund.reference_collision": { status: 409, message: "The refund's reference is taken; retry." },

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
  "webhook.no_event": { status: 400, message: "The payment has no event yet: events are sent for final statuses." },
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
