import { z } from "zod";
import { openHostedInvoice, selectPaymentMethod } from "@/lib/services/invoices/hosted-invoice";
import { paySandboxInvoice } from "@/lib/services/sandbox/sandbox-wallet";
import { defineOperation } from "../../operation";
import { toPublicPayment } from "../../serialize/payment";

export const getHostedPaymentOp = defineOperation({
  schema: z.object({}),
  invalidBody: "pay.bad_request",
  handle: async (_input, context) => toPublicPayment(await openHostedInvoice(context.deps, context.params.id), context.deps.config.publicBaseUrl),
});

export const selectHostedPaymentOp = defineOperation({
  schema: z.object({ currency: z.string().min(1), network: z.string().min(1) }),
  invalidBody: "pay.bad_request",
  fieldErrors: { currency: "pay.unknown_currency", network: "payment.unsupported_network" },
  handle: async (input, context) => toPublicPayment(await selectPaymentMethod(context.deps, context.params.id, input), context.deps.config.publicBaseUrl),
});

export const sandboxPayOp = defineOperation({
  schema: z.object({ step: z.enum(["send", "confirm"]) }),
  invalidBody: "pay.bad_request",
  handle: async (input, context) => toPublicPayment(await paySandboxInvoice(context.deps, context.params.id, input.step), context.deps.config.publicBaseUrl),
});
