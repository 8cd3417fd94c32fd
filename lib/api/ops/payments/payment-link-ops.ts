import { z } from "zod";
import {
  CHECKOUT_INPUT,
  checkoutPaymentLink,
  CREATE_PAYMENT_LINK_INPUT,
  createPaymentLink,
  getMerchantPaymentLinkOrThrow,
  listPaymentLinks,
  openPublicLink,
  toPaymentLinkObject,
  toPublicLinkCard,
  togglePaymentLink,
} from "@/lib/services/payment-links/payment-links";
import { defineOperation } from "../../operation";
import { toPayment } from "../../serialize/payment";
import { merchantOf } from "../context";

/** Designed: POST /v1/payment/link — answers the management object. */
export const createPaymentLinkOp = defineOperation({
  ...CREATE_PAYMENT_LINK_INPUT,
  handle: async (input, context) => toPaymentLinkObject(await createPaymentLink(context.deps, merchantOf(context), input), context.deps.config.publicBaseUrl, context.deps.now()),
});

const linkIdSchema = z.object({ link_id: z.string() });

export const paymentLinkInfoOp = defineOperation({
  schema: linkIdSchema,
  invalidBody: "paylink.bad_request",
  fieldErrors: { link_id: "paylink.bad_id" },
  handle: async (input, context) =>
    toPaymentLinkObject(await getMerchantPaymentLinkOrThrow(context.deps, merchantOf(context), input.link_id), context.deps.config.publicBaseUrl, context.deps.now()),
});

/** spec-style list: `limit` 1–100 (else 20), newest first, `{items, paginate: {count, next_cursor}}`. */
export const listPaymentLinksOp = defineOperation({
  schema: z.object({ limit: z.number().optional(), cursor: z.string().optional() }),
  invalidBody: "paylink.bad_request",
  fieldErrors: { cursor: "paylink.bad_cursor" },
  handle: async (input, context) => {
    const limit = input.limit !== undefined && Number.isInteger(input.limit) && input.limit >= 1 && input.limit <= 100 ? input.limit : 20;
    const page = await listPaymentLinks(context.deps, merchantOf(context), { limit, cursor: input.cursor });
    const now = context.deps.now();
    return { items: page.items.map((link) => toPaymentLinkObject(link, context.deps.config.publicBaseUrl, now)), paginate: { count: page.items.length, next_cursor: page.nextCursor } };
  },
});

export const togglePaymentLinkOp = defineOperation({
  schema: linkIdSchema.extend({ is_active: z.boolean().optional() }),
  invalidBody: "paylink.bad_request",
  fieldErrors: { link_id: "paylink.bad_id" },
  handle: async (input, context) => toPaymentLinkObject(await togglePaymentLink(context.deps, merchantOf(context), input), context.deps.config.publicBaseUrl, context.deps.now()),
});

/** spec: GET /v1/link/{id} (public) — the card. */
export const getPublicLinkOp = defineOperation({
  schema: z.object({}),
  invalidBody: "paylink.bad_request",
  handle: async (_input, context) => toPublicLinkCard(await openPublicLink(context.deps, context.params.id)),
});

/** spec: POST /v1/link/{id}/checkout (public) — a new invoice, answered as the payment object with `url`. */
export const checkoutPaymentLinkOp = defineOperation({
  ...CHECKOUT_INPUT,
  handle: async (input, context) => toPayment(await checkoutPaymentLink(context.deps, context.params.id, input), context.deps.config.publicBaseUrl),
});
