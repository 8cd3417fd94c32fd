import { z } from "zod";
import type { Invoice } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { CREATE_PAYMENT_INPUT, optionalText, PAYMENT_STATUSES } from "@/lib/services/invoices/create-invoice-input";
import { getMerchantInvoiceOrThrow } from "@/lib/services/invoices/find-invoice";
import { listInvoices } from "@/lib/services/invoices/list-invoices";
import { resendInvoiceEvent } from "@/lib/services/invoices/resend-invoice-event";
import { sendInvoiceEmail } from "@/lib/services/invoices/send-invoice-email";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { refundSummary } from "@/lib/services/payouts/create-refund";
import { toRefundElement } from "@/lib/services/payouts/payout-view";
import { toMinor } from "@/lib/services/invoices/invoice-view";
import { defineOperation } from "../../operation";
import { qrCodeOf, toPayment } from "../../serialize/payment";
import { AppError, type InputSpec } from "@/lib/errors";
import { merchantOf } from "../context";

export const createPaymentOp = defineOperation({
  ...CREATE_PAYMENT_INPUT,
  handle: async (input, context) => {
    const serialize = (invoice: Invoice) => toPayment(invoice, context.deps.config.publicBaseUrl);
    const { completeWithin } = context;
    const onWritten = completeWithin && (async (tx: Tx, invoice: Invoice) => completeWithin(tx, await serialize(invoice)));
    return serialize(await createInvoice(context.deps, merchantOf(context), input, { onWritten }));
  },
});

const lookupSchema = z.object({ uuid: z.string().optional(), order_id: z.string().optional() });
/** A payment named by `uuid` or `order_id`, with the codes of a bad lookup. */
const PAYMENT_LOOKUP_INPUT: InputSpec<typeof lookupSchema> = { schema: lookupSchema, invalidBody: "payment.bad_request", fieldErrors: { uuid: "payment.bad_uuid" } };

export const paymentInfoOp = defineOperation({
  ...PAYMENT_LOOKUP_INPUT,
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
  handle: async (input, context) => {
    const invoice = await getMerchantInvoiceOrThrow(context.deps.db, merchantOf(context), input);
    if (!invoice.address) throw new AppError("qr.no_address", "The payment has no address until a coin and network are selected.");
    return { image: await qrCodeOf(invoice.address) };
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
  ...PAYMENT_LOOKUP_INPUT,
  handle: (input, context) => resendInvoiceEvent(context.deps, merchantOf(context), input),
});

export const sendPaymentEmailOp = defineOperation({
  schema: lookupSchema.extend({ email: z.string().optional() }),
  invalidBody: "payment.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid", email: "email.bad_address" },
  handle: (input, context) => sendInvoiceEmail(context.deps, merchantOf(context), input),
});
