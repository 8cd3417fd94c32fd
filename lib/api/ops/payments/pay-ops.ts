import { z } from "zod";
import { openHostedInvoice, selectPaymentMethod } from "@/lib/services/invoices/hosted-invoice";
import { payWithSandboxWallet } from "@/lib/jobs/handlers/sandbox-chain";
import { defineOperation, defineWork } from "../../operation";
import { PUBLIC_PAYMENT_EXAMPLE, PUBLIC_PAYMENT_SCHEMA, toPublicPayment } from "../../serialize/payment";

export const getHostedPaymentOp = defineOperation({
  schema: z.object({}),
  invalidBody: "pay.bad_request",
  summary: "Get an invoice for its hosted payment page",
  description:
    "Public: the invoice's public payment object (without `additional_data`, `payer_email` and `payer_address`); `{id}` is its `uuid`. Opening an unpaid, unexpired invoice whose fixed rate lapsed re-quotes it (the address, and the amount once payment has started, never change); when no rate can be had, the last quote is shown.",
  response: PUBLIC_PAYMENT_SCHEMA,
  errors: ["pay.bad_uuid", "pay.not_found"],
  responseExample: PUBLIC_PAYMENT_EXAMPLE,
  handle: async (_input, context) => toPublicPayment(await openHostedInvoice(context.deps, context.params.id), context.deps.config.publicBaseUrl),
});

export const selectHostedPaymentOp = defineWork({
  schema: z.object({
    currency: z.string().min(1).describe("The settlement coin the buyer picked, e.g. `USDT`."),
    network: z.string().min(1).describe("The network the buyer picked, e.g. `tron`."),
  }),
  invalidBody: "pay.bad_request",
  fieldErrors: { currency: "pay.unknown_currency", network: "payment.unsupported_network" },
  summary: "Choose the coin and network of a currency-agnostic invoice",
  description:
    "Public. On an invoice in `select`: fixes the rate, allocates the deposit address and moves it to `check` (`is_multi` becomes false); the fee had been fixed at creation. The method must be in the merchant's accepted set (or the whole catalogue when the set is empty) and served here. Answers the updated public payment object.",
  response: PUBLIC_PAYMENT_SCHEMA,
  errors: [
    "pay.bad_uuid",
    "pay.not_found",
    "pay.not_selectable",
    "pay.method_not_accepted",
    "pay.below_minimum",
    "invoice.expired",
    "invoice.bad_price",
    "invoice.quote_failed",
    "invoice.address_failed",
  ],
  requestExample: { currency: "USDT", network: "tron" },
  responseExample: PUBLIC_PAYMENT_EXAMPLE,
  unit: selectPaymentMethod,
  args: (input, context) => ({ invoiceId: context.params.id, ...input }),
  answer: (invoice, context) => toPublicPayment(invoice, context.deps.config.publicBaseUrl),
});

export const sandboxPayOp = defineOperation({
  schema: z.object({
    step: z.enum(["send", "confirm"]).describe("`send`: a transaction of the amount still due enters the sandbox mempool. `confirm`: one block is mined."),
  }),
  invalidBody: "pay.bad_request",
  summary: "Pay an invoice with the sandbox wallet",
  description:
    "Public, sandbox mode only (404 `request.not_found` otherwise): the hosted page's \"Pay with a sandbox wallet\". `send` pays the amount still due (less what is already on its way) from a random sandbox address; `confirm` mines one block on the invoice's network. The watcher then sees it at once; answers the updated public payment object. Only an invoice waiting for payment (`check`, `confirm_check`, `wrong_amount_waiting`) on a network a sandbox chain serves.",
  response: PUBLIC_PAYMENT_SCHEMA,
  errors: ["request.not_found", "pay.bad_uuid", "pay.not_found", "pay.not_payable", "sandbox.not_sandbox"],
  requestExample: { step: "send" },
  responseExample: { ...PUBLIC_PAYMENT_EXAMPLE, payment_status: "confirm_check", txid: "5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592" },
  handle: async (input, context) => toPublicPayment(await payWithSandboxWallet(context.deps, context.params.id, input.step), context.deps.config.publicBaseUrl),
});
