import { z } from "zod";
import type { ErrorCode } from "@/lib/errors";
import { checkoutPaymentLink, createPaymentLink, getMerchantPaymentLinkOrThrow, listPaymentLinks, openPublicLink, togglePaymentLink } from "@/lib/services/payment-links/payment-links";
import { CHECKOUT_INPUT, checkoutSchema, CREATE_PAYMENT_LINK_INPUT } from "@/lib/api/requests/payment-link";
import { PAYMENT_LINK_SCHEMA, PUBLIC_LINK_CARD_SCHEMA, toPaymentLinkObject, toPublicLinkCard } from "@/lib/api/serialize/payment-link";
import { defineOperation } from "../../operation";
import { defineInvoiceWork } from "../../invoice-work";
import { PAYMENT_EXAMPLE, PAYMENT_SCHEMA, toPayment } from "../../serialize/payment";
import { merchantOf } from "../context";

const LINK_ID = "a4c1e7d2-5b3f-4e8a-9c6d-0f1e2d3c4b5a";
const PAYMENT_LINK_EXAMPLE: z.output<typeof PAYMENT_LINK_SCHEMA> = {
  link_id: LINK_ID,
  title: "Espresso machine",
  description: "Model X2, shipped within 3 days.",
  amount_mode: "fixed",
  currency: "EUR",
  amount_fixed: "349.90",
  pinned_currency: "USDT",
  url: `https://pay.example.com/pay/link/${LINK_ID}`,
  is_active: true,
  is_expired: false,
  expires_at: "2026-06-30T23:59:59.000Z",
  url_callback: "https://shop.example.com/webhooks/payments",
  url_return: "https://shop.example.com/",
  url_success: "https://shop.example.com/thanks",
  created_at: "2026-01-05T10:00:00.000Z",
  updated_at: "2026-01-05T10:00:00.000Z",
};

/** Codes of a merchant's link named by `link_id`. */
const LINK_LOOKUP_ERRORS: readonly ErrorCode[] = ["paylink.not_found", "paylink.disabled"];
const linkIdSchema = z.object({ link_id: z.string().describe("The link's `link_id` (a UUID).") });

/** Designed: POST /v1/payment/link — answers the management object. */
export const createPaymentLinkOp = defineOperation({
  ...CREATE_PAYMENT_LINK_INPUT,
  summary: "Create a payment link",
  description:
    "Designed: a reusable link with a public card (`GET /v1/link/{id}`) and a public checkout (`POST /v1/link/{id}/checkout`) that makes a new invoice for each buyer, without any merchant secret. The amounts are in `currency` and checked against its decimals; a pinned coin and network apply to every checkout. Answers the management object, whose `url` is the checkout page to hand out.",
  response: PAYMENT_LINK_SCHEMA,
  errors: [
    "paylink.bad_description",
    "paylink.amount_required",
    "paylink.amount_too_large",
    "paylink.bad_range",
    "paylink.unknown_currency",
    "payment.unsupported_network",
    "paylink.disabled",
  ],
  requestExample: {
    title: "Espresso machine",
    description: "Model X2, shipped within 3 days.",
    amount_mode: "fixed",
    currency: "EUR",
    amount: "349.90",
    pinned_currency: "USDT",
    expires_at: "2026-06-30T23:59:59Z",
    url_callback: "https://shop.example.com/webhooks/payments",
    url_return: "https://shop.example.com/",
    url_success: "https://shop.example.com/thanks",
  },
  responseExample: PAYMENT_LINK_EXAMPLE,
  handle: async (input, context) => toPaymentLinkObject(await createPaymentLink(context.deps, merchantOf(context), input), context.deps.config.publicBaseUrl, context.deps.now()),
});

export const paymentLinkInfoOp = defineOperation({
  schema: linkIdSchema,
  invalidBody: "paylink.bad_request",
  fieldErrors: { link_id: "paylink.bad_id" },
  summary: "Get a payment link",
  description: "Designed: the management object of one of the merchant's links, disabled and expired ones included. Another merchant's link is `paylink.not_found`.",
  response: PAYMENT_LINK_SCHEMA,
  errors: LINK_LOOKUP_ERRORS,
  requestExample: { link_id: LINK_ID },
  responseExample: PAYMENT_LINK_EXAMPLE,
  handle: async (input, context) =>
    toPaymentLinkObject(await getMerchantPaymentLinkOrThrow(context.deps, merchantOf(context), input.link_id), context.deps.config.publicBaseUrl, context.deps.now()),
});

/** spec-style list: `limit` 1–100 (else 20), newest first, `{items, paginate: {count, next_cursor}}`. */
export const listPaymentLinksOp = defineOperation({
  schema: z.object({
    limit: z.number().optional().describe("Links per page, 1 to 100; default 20, and any other value gives 20."),
    cursor: z.string().optional().describe("`paginate.next_cursor` of the previous page; omit for the first page."),
  }),
  invalidBody: "paylink.bad_request",
  fieldErrors: { cursor: "paylink.bad_cursor" },
  summary: "List payment links",
  description: "Designed: the merchant's links, newest first, in pages of `limit` (1 to 100, else 20) with a keyset cursor that stays stable while new links are made.",
  response: z
    .object({
      items: z.array(PAYMENT_LINK_SCHEMA).describe("Newest first."),
      paginate: z.object({
        count: z.number().int().describe("Links on this page."),
        next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
      }),
    })
    .meta({ id: "PaymentLinkPage", description: "A page of payment links." }),
  errors: ["paylink.disabled"],
  requestExample: { limit: 20 },
  responseExample: { items: [PAYMENT_LINK_EXAMPLE], paginate: { count: 1, next_cursor: null } },
  handle: async (input, context) => {
    const limit = input.limit !== undefined && Number.isInteger(input.limit) && input.limit >= 1 && input.limit <= 100 ? input.limit : 20;
    const page = await listPaymentLinks(context.deps, merchantOf(context), { limit, cursor: input.cursor });
    const now = context.deps.now();
    return { items: page.items.map((link) => toPaymentLinkObject(link, context.deps.config.publicBaseUrl, now)), paginate: { count: page.items.length, next_cursor: page.nextCursor } };
  },
});

export const togglePaymentLinkOp = defineOperation({
  schema: linkIdSchema.extend({ is_active: z.boolean().optional().describe("The new state; omitted, the link's state flips.") }),
  invalidBody: "paylink.bad_request",
  fieldErrors: { link_id: "paylink.bad_id" },
  summary: "Enable or disable a payment link",
  description:
    "Designed: sets `is_active` (or flips it when omitted). A disabled link's card and checkout answer `paylink.not_found`; invoices already made from it stay payable. Answers the management object.",
  response: PAYMENT_LINK_SCHEMA,
  errors: LINK_LOOKUP_ERRORS,
  requestExample: { link_id: LINK_ID, is_active: false },
  responseExample: { ...PAYMENT_LINK_EXAMPLE, is_active: false, updated_at: "2026-01-06T08:15:00.000Z" },
  handle: async (input, context) => toPaymentLinkObject(await togglePaymentLink(context.deps, merchantOf(context), input), context.deps.config.publicBaseUrl, context.deps.now()),
});

/** spec: GET /v1/link/{id} (public) — the card. */
export const getPublicLinkOp = defineOperation({
  schema: z.object({}),
  invalidBody: "paylink.bad_request",
  summary: "Get a payment link's public card",
  description: "Public: `{id}` is a `link_id`. The card holds nothing about the merchant. An unknown, disabled or expired link is `paylink.not_found`.",
  response: PUBLIC_LINK_CARD_SCHEMA,
  errors: ["paylink.bad_id", "paylink.not_found", "paylink.disabled"],
  responseExample: { link_id: LINK_ID, title: "Espresso machine", description: "Model X2, shipped within 3 days.", amount_mode: "fixed", currency: "EUR", amount_fixed: "349.90", pinned_currency: "USDT" },
  handle: async (_input, context) => toPublicLinkCard(await openPublicLink(context.deps, context.params.id)),
});

/** The checkout body as documented: the values the handler checks against the link, as the strings they must be. */
const documentedCheckout = checkoutSchema.extend({
  amount: z.string().optional().describe(checkoutSchema.shape.amount.description ?? ""),
  currency: z.string().optional().describe(checkoutSchema.shape.currency.description ?? ""),
  network: z.string().optional().describe(checkoutSchema.shape.network.description ?? ""),
});

/** spec: POST /v1/link/{id}/checkout (public) — a new invoice, answered as the payment object with `url`. */
export const checkoutPaymentLinkOp = defineInvoiceWork({
  ...CHECKOUT_INPUT,
  summary: "Check out a payment link",
  description:
    "Public: makes a new invoice of the link's merchant on every call (no idempotency) and answers it as a payment object, whose `url` is its hosted payment page. The amount is the link's (`fixed`) or the buyer's within the link's limits; a pinned coin or network wins over the buyer's; with nothing pinned or chosen the invoice is currency-agnostic and the buyer picks on the page. A disabled or expired link is `paylink.not_found`, but invoices already made stay payable. Any invoice-creation error can also occur.",
  documentedRequest: documentedCheckout,
  response: PAYMENT_SCHEMA,
  errors: [
    "paylink.bad_id",
    "paylink.not_found",
    "paylink.amount_required",
    "paylink.not_positive",
    "paylink.below_min",
    "paylink.above_max",
    "paylink.bad_mode",
    "paylink.unknown_currency",
    "paylink.disabled",
    "payment.to_currency_required",
    "payment.network_required",
    "payment.unsupported_network",
    "payment.below_minimum",
    "payment.bad_url_callback",
    "invoice.bad_price",
    "invoice.quote_failed",
    "invoice.fee_quote_failed",
    "invoice.address_failed",
  ],
  requestExample: { network: "tron", payer_email: "buyer@example.com" },
  responseExample: { ...PAYMENT_EXAMPLE, order_id: "", amount: "349.90", currency: "EUR", payer_amount: "380.4512", amount_remaining: "380.4512", additional_data: "", url_return: "https://shop.example.com/" },
  unit: checkoutPaymentLink,
  args: (input, context) => ({ linkId: context.params.id, input }),
  answer: (invoice, context) => toPayment(invoice, context.deps.config.publicBaseUrl),
});
