import { z } from "zod";
import type { InputSpec } from "@/lib/errors";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { CREATE_PAYMENT_INPUT } from "@/lib/api/requests/payment";
import { qrCodeOf, toPayment } from "@/lib/api/serialize/payment";
import { resendInvoiceEvent, type ResendResult } from "@/lib/services/invoices/resend-invoice-event";
import { createRefund } from "@/lib/services/refunds/create-refund";
import { CREATE_REFUND_INPUT } from "@/lib/api/requests/refund";
import { toRefundObject } from "@/lib/api/serialize/payout";
import { resolvePayment } from "@/lib/services/refunds/resolve-payment";
import { defineCabinetUnit, type CabinetActionEntry } from "../action-table";
import { userActor } from "./payout-actions";

// Each input below is the API operation's own (same fields, same codes): the invoice page sends a
// uuid, and a uuid of another merchant is `payment.not_found`, as over the API.

/** POST /v1/payment/resend's body (lib/api/ops/payments/payment-ops.ts, PAYMENT_LOOKUP_INPUT). */
const paymentLookupSchema = z.object({ uuid: z.string().optional(), order_id: z.string().optional() });
const PAYMENT_LOOKUP_INPUT: InputSpec<typeof paymentLookupSchema> = { schema: paymentLookupSchema, invalidBody: "payment.bad_request", fieldErrors: { uuid: "payment.bad_uuid" } };

/** /v1/payment/resolve's body (lib/api/ops/refunds/refund-ops.ts, resolvePaymentOp). */
const resolvePaymentSchema = z.object({ uuid: z.string().optional(), order_id: z.string().optional(), action: z.enum(["accept", "refund"]), address: optionalText, amount: optionalText });
const RESOLVE_PAYMENT_INPUT: InputSpec<typeof resolvePaymentSchema> = {
  schema: resolvePaymentSchema,
  invalidBody: "refund.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid", amount: "refund.bad_amount", address: "payout.bad_address" },
};

/**
 * /v1/payment/resend: records the invoice's event (that of its current final status, with its
 * current body) again, as new deliveries to the endpoint and the invoice's url_callback.
 * Permission "money": a resent `invoice.paid` is what makes a store ship an order, so it belongs
 * with the people who handle payments (owner, admin, finance), not with viewers; it needs no fresh
 * code because receivers deduplicate on uuid + status (spec: Webhooks), so a repeat changes nothing.
 */
export const resendInvoiceWebhook = defineCabinetUnit({
  permission: "money",
  audit: "webhook.resent",
  input: PAYMENT_LOOKUP_INPUT,
  unit: resendInvoiceEvent,
  args: ({ actor }, input) => ({ merchantId: actor.merchantId, lookup: input }),
  describe: (_input, result) => {
    const resent = result as ResendResult;
    return { payment: resent.uuid, event_type: resent.event_type, deliveries: resent.deliveries.length };
  },
});

/**
 * POST /v1/payment/refund: the same rules and codes; the refund's creator is the cabinet user.
 * Sensitive (a fresh code): it sends money to any address.
 */
export const createInvoiceRefund = defineCabinetUnit({
  permission: "money",
  audit: "refund.created",
  input: CREATE_REFUND_INPUT,
  unit: createRefund,
  args: ({ actor }, input) => ({ merchantId: actor.merchantId, input, actor: userActor(actor.userId) }),
  answer: ({ refund, payment }) => toRefundObject(refund, payment),
  describe: (_input, result) => {
    const refund = result as ReturnType<typeof toRefundObject>;
    return { payment: refund.payment_uuid, refund: refund.uuid, amount: refund.amount, currency: refund.currency, network: refund.network };
  },
});

/**
 * /v1/payment/resolve: the one decision on a payment that ended underpaid or overpaid — accept it
 * as it is, or refund what was received (underpaid) or the excess (overpaid). Sensitive (a fresh
 * code): a refund sends money to any address, and an accepted underpayment sends invoice.paid.
 * A refund it makes names the user as its creator.
 */
export const resolveInvoicePayment = defineCabinetUnit({
  permission: "money",
  audit: "payment.resolved",
  input: RESOLVE_PAYMENT_INPUT,
  unit: resolvePayment,
  args: ({ actor }, input) => ({ merchantId: actor.merchantId, input, actor: userActor(actor.userId) }),
  answer: ({ invoice, refund }) => ({ uuid: invoice.id, payment_status: invoice.status, resolution: invoice.resolution, refund: refund ? toRefundObject(refund, invoice) : null }),
  describe: (_input, result) => {
    const resolved = result as { uuid: string; resolution: string | null; refund: ReturnType<typeof toRefundObject> | null };
    return { payment: resolved.uuid, resolution: resolved.resolution, refund: resolved.refund?.uuid ?? null, amount: resolved.refund?.amount ?? null };
  },
});

/**
 * POST /v1/payment from the cabinet: an invoice made by hand (a sale by phone, an invoice sent by
 * e-mail), with the API's input, checks and codes; the same order_id while its invoice lives
 * answers that invoice. Permission "links": as payment links, it asks for money and moves none.
 * Answers the payment object with a QR code of its payment page to share.
 */
export const createManualInvoice = defineCabinetUnit({
  permission: "links",
  audit: "invoice.created",
  input: CREATE_PAYMENT_INPUT,
  unit: createInvoice,
  args: ({ actor }, input) => ({ merchantId: actor.merchantId, input: { ...input, is_refresh: undefined } }),
  answer: async (invoice, { deps }) => {
    const payment = await toPayment(invoice, deps.config.publicBaseUrl);
    return { ...payment, url_qr_code: await qrCodeOf(payment.url) };
  },
  describe: (_input, result) => {
    const payment = result as { uuid: string; order_id: string | null; amount: string; currency: string };
    return { payment: payment.uuid, order_id: payment.order_id, amount: payment.amount, currency: payment.currency };
  },
});

export const INVOICE_ACTIONS = {
  "invoice.create": createManualInvoice,
  "invoice.resend_webhook": resendInvoiceWebhook,
  "refund.create": createInvoiceRefund,
  "invoice.resolve": resolveInvoicePayment,
} satisfies Record<string, CabinetActionEntry>;
