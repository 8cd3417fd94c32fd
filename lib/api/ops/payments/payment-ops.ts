import { z } from "zod";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { CREATE_PAYMENT_INPUT } from "@/lib/api/requests/payment";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { PAYMENT_STATUSES } from "@/lib/domain/invoice/status";
import { getMerchantInvoiceOrThrow } from "@/lib/services/invoices/find-invoice";
import { listInvoices } from "@/lib/services/invoices/list-invoices";
import { resendInvoiceEvent } from "@/lib/services/invoices/resend-invoice-event";
import { sendInvoiceEmail } from "@/lib/services/invoices/send-invoice-email";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { refundSummary } from "@/lib/domain/refund/refundable";
import { toRefundElement } from "@/lib/api/serialize/payout";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { defineOperation, defineWork } from "../../operation";
import { defineInvoiceWork } from "../../invoice-work";
import { PAYMENT_EXAMPLE, PAYMENT_INFO_SCHEMA, PAYMENT_SCHEMA, qrCodeOf, toPayment } from "../../serialize/payment";
import { AppError, type ErrorCode, type InputSpec } from "@/lib/errors";
import { merchantOf } from "../context";

const CREATE_PAYMENT_DESCRIPTION = `Creates an invoice priced in \`currency\` (any of the catalogue's pricing currencies, fiat or coin) and settled in crypto. Minimum body: \`amount\` and \`currency\`.

Currency and network modes:

| \`currency\` (price) | \`to_currency\` / \`network\` | Result |
|---|---|---|
| crypto or fiat | both empty | Currency-agnostic invoice (\`is_multi: true\`, status \`select\`): the buyer picks coin and network on the hosted page. Rate and address are fixed at selection; the fee at creation. |
| fiat or crypto | both set | An invoice for that coin and network. |
| crypto | \`to_currency\` empty, \`network\` set | \`to_currency\` = \`currency\`. |
| any | \`to_currency\` set, \`network\` empty | The network is filled in when the coin has exactly one; otherwise \`payment.network_required\`. |
| fiat | \`to_currency\` empty, \`network\` set | \`payment.to_currency_required\`. |

Rules:

1. Without \`Idempotency-Key\` and without \`order_id\`, every call creates a new invoice.
2. A repeat with an \`order_id\` that has a live invoice answers that invoice; a final or expired one does not block a new one. Concurrent creates of one \`order_id\` make one invoice.
3. \`lifetime\` is clamped to 300–43200 seconds (default 3600); an out-of-range value is not an error.
4. A price below the network's minimum in USD is \`payment.below_minimum\`.
5. The rate is fixed at creation; the hosted page re-quotes an unpaid, unexpired invoice whose rate lapsed. Address and amount never change once payment starts.
6. Without a rate the invoice is not created: \`invoice.fee_quote_failed\` (503), retry with backoff.`;

// spec: POST /v1/payment — Errors, and the invoice engine's own.
const CREATE_PAYMENT_ERRORS: readonly ErrorCode[] = [
  "payment.unknown_currency",
  "payment.unknown_to_currency",
  "payment.to_currency_required",
  "payment.bad_url_callback",
  "payment.network_required",
  "payment.unsupported_network",
  "payment.bad_amount",
  "payment.bad_subtract",
  "payment.bad_accuracy",
  "payment.below_minimum",
  "invoice.bad_price",
  "invoice.fee_quote_failed",
  "invoice.address_failed",
];

export const createPaymentOp = defineInvoiceWork({
  ...CREATE_PAYMENT_INPUT,
  summary: "Create an invoice",
  description: CREATE_PAYMENT_DESCRIPTION,
  response: PAYMENT_SCHEMA,
  errors: CREATE_PAYMENT_ERRORS,
  requestExample: {
    amount: "25.00",
    currency: "USD",
    order_id: "order-1001",
    to_currency: "USDT",
    network: "tron",
    lifetime: 3600,
    url_callback: "https://shop.example.com/webhooks/payments",
    url_return: "https://shop.example.com/cart",
    url_success: "https://shop.example.com/thanks",
    additional_data: "customer=4412",
    payer_email: "buyer@example.com",
  },
  responseExample: PAYMENT_EXAMPLE,
  unit: createInvoice,
  args: (input, context) => ({ merchantId: merchantOf(context), input, merchantTerms: context.merchantTerms ?? undefined }),
  answer: (invoice, context) => toPayment(invoice, context.deps.config.publicBaseUrl),
});

const lookupSchema = z.object({
  uuid: z.string().optional().describe("The invoice's `uuid`. Give it or `order_id`; it wins when both are given."),
  order_id: z.string().optional().describe("The merchant's `order_id`: the newest invoice with it."),
});
/** A payment named by `uuid` or `order_id`, with the codes of a bad lookup. */
const PAYMENT_LOOKUP_INPUT: InputSpec<typeof lookupSchema> = { schema: lookupSchema, invalidBody: "payment.bad_request", fieldErrors: { uuid: "payment.bad_uuid" } };

/** Codes of a lookup beyond its input checks. */
const LOOKUP_ERRORS: readonly ErrorCode[] = ["payment.no_lookup", "payment.not_found"];
const LOOKUP_EXAMPLE = { uuid: PAYMENT_EXAMPLE.uuid };

export const paymentInfoOp = defineOperation({
  ...PAYMENT_LOOKUP_INPUT,
  summary: "Get an invoice with its refunds",
  description:
    "Designed: the payment object of the invoice named by `uuid` or `order_id` (the newest with that `order_id`), plus `refund_status` and `refunds`. Another merchant's invoice is `payment.not_found`.",
  response: PAYMENT_INFO_SCHEMA,
  errors: LOOKUP_ERRORS,
  requestExample: LOOKUP_EXAMPLE,
  responseExample: {
    ...PAYMENT_EXAMPLE,
    payment_amount: "25.4019",
    amount_paid: "25.4019",
    amount_remaining: "0",
    payer_address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    payment_status: "paid",
    is_final: true,
    confirmations: 19,
    txid: "9f2c6f1de1b54c3a8a7b0e4f5d6c7b8a9e0f1a2b3c4d5e6f708192a3b4c5d6e7",
    refund_status: "partial",
    refunds: [
      {
        uuid: "b7e1c2d3-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
        status: "paid",
        amount: "10",
        address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
        txid: "4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293",
        is_final: true,
        created_at: "2026-01-02T09:30:00.000Z",
      },
    ],
  },
  handle: async (input, context) => {
    const invoice = await getMerchantInvoiceOrThrow(context.deps.db, merchantOf(context), input);
    const refunds = await context.deps.db.payout.findMany({ where: { invoiceId: invoice.id, kind: "refund" }, orderBy: { createdAt: "asc" } });
    return {
      ...(await toPayment(invoice, context.deps.config.publicBaseUrl)),
      refund_status: refundSummary(toMinor(invoice.amountPaidMinor), refunds),
      refunds: refunds.map(toRefundElement),
    };
  },
});

/** Designed: POST /v1/payment/qr — `{image}`: a `data:` URI with a QR code of the deposit address (`qr.no_address` before a coin is chosen). */
export const paymentQrOp = defineOperation({
  ...PAYMENT_LOOKUP_INPUT,
  summary: "Get a QR code of an invoice's deposit address",
  description:
    "Designed: `image`, a `data:` URI (SVG) with a QR code of the deposit address of the invoice named by `uuid` or `order_id`. A currency-agnostic invoice has no address until the buyer selects a coin: `qr.no_address`.",
  response: z.object({ image: z.string().describe("A `data:image/svg+xml;base64,…` URI.") }),
  errors: [...LOOKUP_ERRORS, "qr.no_address"],
  requestExample: LOOKUP_EXAMPLE,
  responseExample: { image: PAYMENT_EXAMPLE.address_qr_code },
  handle: async (input, context) => {
    const invoice = await getMerchantInvoiceOrThrow(context.deps.db, merchantOf(context), input);
    if (!invoice.address) throw new AppError("qr.no_address", "The payment has no address until a coin and network are selected.");
    return { image: await qrCodeOf(invoice.address) };
  },
});

const historySchema = z.object({
  limit: z.number().int().optional().describe("Invoices per page, a whole number from 1 to 100; default 20, and one outside that range gives 20."),
  cursor: optionalText.describe("`paginate.next_cursor` of the previous page; omit for the first page."),
  status: z
    .union([z.enum(PAYMENT_STATUSES), z.array(z.enum(PAYMENT_STATUSES))])
    .optional()
    .describe("Only invoices in this `payment_status`, or in any of these."),
  currency: optionalText.describe("Only invoices priced or settled in this currency."),
  network: optionalText.describe("Only invoices settled on this network."),
  order_id: optionalText.describe("Only invoices with this `order_id`."),
  date_from: optionalText.pipe(z.iso.datetime({ offset: true }).optional()).describe("Only invoices created at or after this time (RFC 3339 with offset)."),
  date_to: optionalText.pipe(z.iso.datetime({ offset: true }).optional()).describe("Only invoices created before this time (RFC 3339 with offset)."),
});

const PAYMENT_PAGE_SCHEMA = z
  .object({
    items: z.array(PAYMENT_SCHEMA).describe("Newest first. Lists carry no `refund_status` or `refunds`."),
    paginate: z.object({
      count: z.number().int().describe("Items on this page."),
      next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
    }),
  })
  .meta({ id: "PaymentPage", description: "A page of invoices." });
const PAYMENT_PAGE_EXAMPLE = { items: [PAYMENT_EXAMPLE], paginate: { count: 1, next_cursor: null } };

/** spec: the list and history shapes are "not shown": `{items, paginate: {count, next_cursor}}`, newest first. */
async function listPage(input: z.output<typeof historySchema>, context: Parameters<typeof merchantOf>[0]) {
  // limit outside 1–100 becomes 20, in the manner of the payout link list's clamping rule.
  const limit = input.limit !== undefined && input.limit >= 1 && input.limit <= 100 ? input.limit : 20;
  const page = await listInvoices(
    context.deps.db,
    merchantOf(context),
    {
      status: input.status === undefined ? undefined : Array.isArray(input.status) ? input.status : [input.status],
      currency: input.currency ? normalizeSymbol(input.currency) : undefined,
      network: input.network ? normalizeNetworkId(input.network) : undefined,
      order_id: input.order_id,
      date_from: input.date_from ? new Date(input.date_from) : undefined,
      date_to: input.date_to ? new Date(input.date_to) : undefined,
    },
    { limit, cursor: input.cursor },
  );
  const items = await Promise.all(page.items.map((row) => toPayment(row, context.deps.config.publicBaseUrl)));
  return { items, paginate: { count: items.length, next_cursor: page.nextCursor } };
}

export const paymentListOp = defineOperation({
  schema: historySchema.pick({ limit: true, cursor: true }),
  invalidBody: "payment.bad_request",
  summary: "List invoices",
  description: "Designed: the merchant's invoices, newest first, in pages of `limit` (1 to 100, else 20) with a keyset cursor that stays stable while new invoices arrive.",
  response: PAYMENT_PAGE_SCHEMA,
  errors: ["payment.bad_cursor"],
  requestExample: { limit: 20 },
  responseExample: PAYMENT_PAGE_EXAMPLE,
  handle: (input, context) => listPage(input, context),
});

export const paymentHistoryOp = defineOperation({
  schema: historySchema,
  invalidBody: "payment.bad_request",
  summary: "Search invoices",
  description:
    "Designed: the list of `POST /v1/payment/list` with filters, all optional and combined: `status` (one or several), `currency` (price or settlement), `network`, `order_id`, and a creation window `date_from` (inclusive) to `date_to` (exclusive). Newest first; `limit` 1 to 100, else 20.",
  response: PAYMENT_PAGE_SCHEMA,
  errors: ["payment.bad_cursor"],
  requestExample: { status: ["paid", "paid_over"], currency: "USDT", date_from: "2026-01-01T00:00:00Z", date_to: "2026-02-01T00:00:00Z", limit: 50 },
  responseExample: PAYMENT_PAGE_EXAMPLE,
  handle: (input, context) => listPage(input, context),
});

export const paymentResendOp = defineWork({
  ...PAYMENT_LOOKUP_INPUT,
  summary: "Send an invoice's webhook again",
  description:
    "Designed: records the event of the invoice's current final status (`invoice.paid`, `invoice.paid_over`, `invoice.wrong_amount` or `invoice.expired`), with the current body, as new deliveries to the registered endpoint and to the invoice's `url_callback`. Receivers deduplicate on `uuid` plus `status`, so a resend is safe to process twice. An invoice not yet final has no event: `webhook.no_event`; with neither an endpoint nor a `url_callback`: `webhook.no_endpoint`.",
  response: z.object({
    uuid: z.uuid().describe("The invoice."),
    event_type: z.enum(["invoice.paid", "invoice.paid_over", "invoice.wrong_amount", "invoice.expired"]).describe("The event sent."),
    deliveries: z.array(z.uuid()).describe("The new deliveries' ids, as the deliveries log shows them."),
  }),
  errors: [...LOOKUP_ERRORS, "webhook.no_event", "webhook.no_endpoint"],
  requestExample: { order_id: "order-1001" },
  responseExample: { uuid: PAYMENT_EXAMPLE.uuid, event_type: "invoice.paid", deliveries: ["6a1d3e5f-7b9c-4d2e-8f10-a2b4c6d8e0f1"] },
  unit: resendInvoiceEvent,
  args: (input, context) => ({ merchantId: merchantOf(context), lookup: input }),
  answer: (resent) => resent,
});

export const sendPaymentEmailOp = defineOperation({
  schema: lookupSchema.extend({ email: z.string().optional().describe("The recipient; default the invoice's `payer_email`.") }),
  invalidBody: "payment.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid", email: "email.bad_address" },
  summary: "E-mail an invoice to the payer",
  description:
    "Queues an e-mail of the invoice, with a pay button, to `email` or the invoice's `payer_email`. It may be repeated (no deduplication) and works on expired invoices too. `sent` means queued, not delivered. The receipt after payment is separate and automatic when `payer_email` is set.",
  response: z.object({
    sent: z.boolean().describe("True: the e-mail is queued (not yet delivered)."),
    email: z.string().describe("The recipient it was queued for."),
    uuid: z.uuid().describe("The invoice."),
  }),
  errors: [...LOOKUP_ERRORS, "email.no_recipient", "email.disabled"],
  requestExample: { uuid: PAYMENT_EXAMPLE.uuid, email: "buyer@example.com" },
  responseExample: { sent: true, email: "buyer@example.com", uuid: PAYMENT_EXAMPLE.uuid },
  handle: (input, context) => sendInvoiceEmail(context.deps, merchantOf(context), input),
});
