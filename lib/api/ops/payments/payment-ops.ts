import { z } from "zod";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { getMerchantInvoiceOrThrow } from "@/lib/services/invoices/find-invoice";
import { listInvoices } from "@/lib/services/invoices/list-invoices";
import { resendInvoiceEvent } from "@/lib/services/invoices/resend-invoice-event";
import { sendInvoiceEmail } from "@/lib/services/invoices/send-invoice-email";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { defineOperation } from "../../operation";
import { toPayment } from "../../serialize/payment";
import { merchantOf } from "../context";

/** "" is treated as absent: clients often send empty strings for unused optional fields. */
const optionalText = z.preprocess((value) => (value === "" || value === null ? undefined : value), z.string().optional());
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), "must be an http(s) URL");
const PAYMENT_STATUSES = ["select", "check", "confirm_check", "wrong_amount_waiting", "paid", "paid_over", "wrong_amount", "cancel"] as const;

export const createPaymentBodySchema = z.object({
  amount: z.string(),
  currency: z.string(),
  order_id: z.string().min(1).max(128).optional(),
  network: optionalText,
  to_currency: optionalText,
  lifetime: z.number().int().optional(),
  subtract: z.number().optional(),
  accuracy_payment_percent: z.number().optional(),
  url_callback: optionalText,
  url_return: z.preprocess((value) => (value === "" ? undefined : value), httpUrl.optional()),
  url_success: z.preprocess((value) => (value === "" ? undefined : value), httpUrl.optional()),
  additional_data: z.string().max(4096).optional(),
  payer_email: z.preprocess((value) => (value === "" ? undefined : value), z.email().max(254).optional()),
  theme: z.enum(["dark", "light"]).optional(),
  is_payment_multiple: z.boolean().optional(),
  is_refresh: z.boolean().optional(),
});

export const createPaymentOp = defineOperation({
  schema: createPaymentBodySchema,
  invalidBody: "payment.bad_request",
  fieldErrors: {
    amount: "payment.bad_amount",
    currency: "payment.unknown_currency",
    to_currency: "payment.unknown_to_currency",
    network: "payment.unsupported_network",
    subtract: "payment.bad_subtract",
    accuracy_payment_percent: "payment.bad_accuracy",
    url_callback: "payment.bad_url_callback",
  },
  handle: async (input, context) => toPayment(await createInvoice(context.deps, merchantOf(context), input), context.deps.config.publicBaseUrl),
});

const lookupSchema = z.object({ uuid: z.string().optional(), order_id: z.string().optional() });

export const paymentInfoOp = defineOperation({
  schema: lookupSchema,
  invalidBody: "payment.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid" },
  handle: async (input, context) => {
    const invoice = await getMerchantInvoiceOrThrow(context.deps.db, merchantOf(context), input);
    // Refunds come with the payout engine; until one exists every invoice has none.
    return { ...(await toPayment(invoice, context.deps.config.publicBaseUrl)), refund_status: "none", refunds: [] };
  },
});

const historySchema = z.object({
  limit: z.number().int().optional(),
  cursor: optionalText,
  status: z.union([z.enum(PAYMENT_STATUSES), z.array(z.enum(PAYMENT_STATUSES))]).optional(),
  currency: optionalText,
  network: optionalText,
  order_id: optionalText,
  date_from: optionalText.pipe(z.iso.datetime({ offset: true }).optional()),
  date_to: optionalText.pipe(z.iso.datetime({ offset: true }).optional()),
});

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
  handle: (input, context) => listPage(input, context),
});

export const paymentHistoryOp = defineOperation({
  schema: historySchema,
  invalidBody: "payment.bad_request",
  handle: (input, context) => listPage(input, context),
});

export const paymentResendOp = defineOperation({
  schema: lookupSchema,
  invalidBody: "payment.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid" },
  handle: async (input, context) => {
    const result = await resendInvoiceEvent(context.deps, merchantOf(context), input);
    context.deps.notifyDeliveries(result.deliveries);
    return result;
  },
});

export const sendPaymentEmailOp = defineOperation({
  schema: lookupSchema.extend({ email: z.string().optional() }),
  invalidBody: "payment.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid", email: "email.bad_address" },
  handle: (input, context) => sendInvoiceEmail(context.deps, merchantOf(context), input),
});
