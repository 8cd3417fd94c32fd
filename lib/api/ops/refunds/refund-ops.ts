import { z } from "zod";
import type { Payout } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { optionalText } from "@/lib/services/invoices/create-invoice-input";
import { CREATE_REFUND_INPUT, createRefund, getRefundFeeConfig, setRefundFeeConfig, type RefundedPayment } from "@/lib/services/payouts/create-refund";
import { toRefundObject } from "@/lib/services/payouts/payout-view";
import { getAutorefund, resolvePayment, setAutorefund } from "@/lib/services/payouts/resolve-payment";
import { defineOperation } from "../../operation";
import { actorOf, merchantOf } from "../context";

export const createRefundOp = defineOperation({
  ...CREATE_REFUND_INPUT,
  handle: async (input, context) => {
    const { completeWithin } = context;
    const onWritten = completeWithin && ((tx: Tx, refund: Payout, payment: RefundedPayment) => completeWithin(tx, toRefundObject(refund, payment)));
    const { refund, payment } = await createRefund(context.deps, merchantOf(context), input, { actor: actorOf(context), onWritten });
    return toRefundObject(refund, payment);
  },
});

export const getRefundFeeConfigOp = defineOperation({
  schema: z.object({}),
  invalidBody: "refund.bad_request",
  handle: (_input, context) => getRefundFeeConfig(context.deps.db, merchantOf(context)),
});

export const setRefundFeeConfigOp = defineOperation({
  schema: z.object({ payer: z.enum(["merchant", "customer"]) }),
  invalidBody: "refund.bad_request",
  handle: (input, context) => setRefundFeeConfig(context.deps.db, merchantOf(context), input.payer),
});

/** Designed: /v1/payment/resolve — settles an underpaid or overpaid payment once. */
export const resolvePaymentOp = defineOperation({
  schema: z.object({ uuid: z.string().optional(), order_id: z.string().optional(), action: z.enum(["accept", "refund"]), address: optionalText, amount: optionalText }),
  invalidBody: "refund.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid", amount: "refund.bad_amount", address: "payout.bad_address" },
  handle: async (input, context) => {
    const { invoice, refund } = await resolvePayment(context.deps, merchantOf(context), input, actorOf(context));
    return {
      payment: { ...(await context.deps.presentInvoice(invoice)), resolution: invoice.resolution },
      refund: refund ? toRefundObject(refund, invoice) : null,
    };
  },
});

export const getAutorefundOp = defineOperation({
  schema: z.object({}),
  invalidBody: "refund.bad_request",
  handle: (_input, context) => getAutorefund(context.deps.db, merchantOf(context)),
});

export const setAutorefundOp = defineOperation({
  schema: z.object({ underpaid: z.boolean().optional(), overpaid: z.boolean().optional() }),
  invalidBody: "refund.bad_request",
  handle: (input, context) => setAutorefund(context.deps, merchantOf(context), input),
});
