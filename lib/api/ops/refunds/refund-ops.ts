import { z } from "zod";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { createRefund, getRefundFeeConfig, setRefundFeeConfig } from "@/lib/services/refunds/create-refund";
import { CREATE_REFUND_INPUT } from "@/lib/api/requests/refund";
import { REFUND_SCHEMA, toRefundObject } from "../../serialize/payout";
import { PAYMENT_EXAMPLE, PAYMENT_SCHEMA } from "../../serialize/payment";
import { getAutorefund, resolvePayment, setAutorefund } from "@/lib/services/refunds/resolve-payment";
import { defineOperation, defineWork } from "../../operation";
import { actorOf, merchantOf } from "../context";

const REFUND_EXAMPLE = {
  uuid: "3d9e1f7a-2b4c-4e6d-8f0a-1c3e5a7b9d2f",
  status: "process",
  amount: "40",
  address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  txid: "",
  is_final: false,
  created_at: "2025-06-12T14:03:27.809Z",
  payment_uuid: "8a4c2e6f-1b3d-4f5a-9c7e-0d2f4b6a8c1e",
  order_id: "order-10482",
  currency: "USDT",
  network: "tron",
  commission: "1.2",
  receive_amount: "40",
};

/** What createRefund can refuse: the payment, the destination, the amount, the balance. */
const REFUND_ERRORS = [
  "payment.no_lookup",
  "payment.not_found",
  "refund.nothing_to_refund",
  "payout.asset_mismatch",
  "refund.no_address",
  "payout.address_network_mismatch",
  "refund.destination_internal",
  "compliance.blocked",
  "compliance.unavailable",
  "payout.convert_no_rate",
  "refund.exceeds_refundable",
  "refund.dust",
  "refund.reference_collision",
  "payout.insufficient_funds",
  "payout.funds_maturing",
  "payout.frozen",
] as const;

export const createRefundOp = defineWork({
  ...CREATE_REFUND_INPUT,
  summary: "Refund a payment",
  description: [
    "Returns money a payment received, as a payout (`kind: refund`, with `payout.*` events): in the coin actually received, on its network, not revalued; auto-approved, and it cannot be stopped once sent. By default everything received not yet refunded goes back to the payer's address; `address` is required on Bitcoin-like networks, where the payer's address is not known. `amount` makes a partial refund; the refunds of a payment never add up to more than it received (`refund.exceeds_refundable`).",
    "Idempotent by `Idempotency-Key` or by the triple (payment, address, amount): a repeat while that refund is live answers it. The payout fee goes on top (the payer receives `amount`) unless the refund fee-config makes the customer bear it. An amount that does not exceed the fee is `refund.dust`. Partners' split shares of the payment shrink first.",
    "Within the freeze after a new key that can move money (`GATEWAY_PAYOUT_FREEZE_SECONDS`), a refund to any address but the payer's is `payout.frozen` (409); back to the address that paid is never frozen.",
  ].join("\n\n"),
  response: REFUND_SCHEMA,
  errors: REFUND_ERRORS,
  requestExample: { uuid: "8a4c2e6f-1b3d-4f5a-9c7e-0d2f4b6a8c1e", amount: "40" },
  responseExample: REFUND_EXAMPLE,
  unit: createRefund,
  args: (input, context) => ({ merchantId: merchantOf(context), input, actor: actorOf(context) }),
  answer: ({ refund, payment }) => toRefundObject(refund, payment),
});

const REFUND_FEE_CONFIG_SCHEMA = z
  .object({ payer: z.enum(["merchant", "customer"]).describe("`merchant` (default): the fee goes on top, the payer receives the refund's amount. `customer`: the fee comes out of the amount.") })
  .meta({ id: "RefundFeeConfig", description: "Who bears a refund's payout fee." });

export const getRefundFeeConfigOp = defineOperation({
  schema: z.object({}),
  invalidBody: "refund.bad_request",
  summary: "Get the refund fee-config",
  description: "Who bears the payout (network) fee of refunds: the merchant (default) or the customer.",
  response: REFUND_FEE_CONFIG_SCHEMA,
  errors: [],
  requestExample: {},
  responseExample: { payer: "merchant" },
  handle: (_input, context) => getRefundFeeConfig(context.deps.db, merchantOf(context)),
});

export const setRefundFeeConfigOp = defineOperation({
  schema: z.object({ payer: z.enum(["merchant", "customer"]).describe("Who bears the payout fee of refunds made from now on.") }),
  invalidBody: "refund.bad_request",
  summary: "Set the refund fee-config",
  description: "Sets who bears the payout fee of refunds made from now on: `merchant` (on top of the amount) or `customer` (out of the amount).",
  response: REFUND_FEE_CONFIG_SCHEMA,
  errors: [],
  requestExample: { payer: "customer" },
  responseExample: { payer: "customer" },
  handle: (input, context) => setRefundFeeConfig(context.deps.db, merchantOf(context), input.payer),
});

/** Designed: /v1/payment/resolve — settles an underpaid or overpaid payment once. */
export const resolvePaymentOp = defineWork({
  schema: z.object({
    uuid: z.string().optional().describe("The payment; give `uuid` or `order_id`."),
    order_id: z.string().optional().describe("The payment's `order_id`, when `uuid` is not given."),
    action: z.enum(["accept", "refund"]).describe("`accept`: an underpayment counts as paid, an overpayment's excess is kept. `refund`: everything received (underpaid) or the excess (overpaid) goes back."),
    address: optionalText.describe("With `refund`: where it goes. Default: the payer's address."),
    amount: optionalText.describe("With `refund` of an overpayment: part of the excess, a decimal string in the payment's coin. Default: all of it."),
  }),
  invalidBody: "refund.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid", amount: "refund.bad_amount", address: "payout.bad_address" },
  summary: "Resolve an underpaid or overpaid payment",
  description: [
    "Settles, once, a payment that ended underpaid (`wrong_amount`) or overpaid (`paid_over`). `accept` makes an underpayment `paid` (event `invoice.paid`) or keeps an overpayment's excess. `refund` returns everything received (underpaid) or the excess (overpaid; `refund.exceeds_excess` above it) as a refund, a payout with `payout.*` events, made as POST /v1/payment/refund makes one; the payment is marked resolved in the same transaction.",
    "Any other payment, or one resolved already, is `payment.not_resolvable`.",
  ].join("\n\n"),
  response: z.object({
    payment: PAYMENT_SCHEMA.extend({ resolution: z.enum(["accepted", "refunded"]).describe("How the payment was resolved.") }).meta({
      id: "ResolvedPayment",
      description: "A payment with the decision taken on it.",
    }),
    refund: REFUND_SCHEMA.nullable().describe("The refund made; null with `accept`."),
  }),
  errors: [...REFUND_ERRORS, "payment.not_resolvable", "refund.exceeds_excess"],
  requestExample: { uuid: PAYMENT_EXAMPLE.uuid, action: "refund" },
  responseExample: {
    payment: {
      ...PAYMENT_EXAMPLE,
      payment_amount: "30.4019",
      amount_paid: "30.4019",
      amount_remaining: "0",
      payer_address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
      payment_status: "paid_over",
      is_final: true,
      updated_at: "2026-01-01T00:41:12.500Z",
      confirmations: 19,
      txid: "4b7e0c2d9a1f3e5b7d9c1a3e5f7b9d1c3a5e7f9b1d3c5a7e9f1b3d5c7a9e1f3b",
      resolution: "refunded",
    },
    refund: { ...REFUND_EXAMPLE, amount: "5", receive_amount: "5", payment_uuid: PAYMENT_EXAMPLE.uuid, order_id: PAYMENT_EXAMPLE.order_id, created_at: "2026-01-01T00:41:12.500Z" },
  },
  unit: resolvePayment,
  args: (input, context) => ({ merchantId: merchantOf(context), input, actor: actorOf(context) }),
  answer: async ({ invoice, refund }, context) => ({
    payment: { ...(await context.deps.presentInvoice(invoice)), resolution: invoice.resolution },
    refund: refund ? toRefundObject(refund, invoice) : null,
  }),
});

const AUTOREFUND_SCHEMA = z
  .object({
    underpaid: z.boolean().describe("Whether payments that end underpaid are refunded by themselves (everything received)."),
    overpaid: z.boolean().describe("Whether payments that end overpaid have their excess refunded by themselves."),
  })
  .meta({ id: "Autorefund", description: "Automatic refunds of under- and overpayments to the payer's address." });

export const getAutorefundOp = defineOperation({
  schema: z.object({}),
  invalidBody: "refund.bad_request",
  summary: "Get the autorefund settings",
  description: "Whether under- and overpaid payments are refunded automatically, as /v1/payment/resolve with `refund` would, when the payer's address is known.",
  response: AUTOREFUND_SCHEMA,
  errors: [],
  requestExample: {},
  responseExample: { underpaid: false, overpaid: true },
  handle: (_input, context) => getAutorefund(context.deps.db, merchantOf(context)),
});

export const setAutorefundOp = defineOperation({
  schema: z.object({
    underpaid: z.boolean().optional().describe("Turn automatic refunds of underpayments on or off; omitted: unchanged."),
    overpaid: z.boolean().optional().describe("Turn automatic refunds of overpaid excess on or off; omitted: unchanged."),
  }),
  invalidBody: "refund.bad_request",
  summary: "Set the autorefund settings",
  description:
    "Applies to payments that end under- or overpaid from now on: one that ended before the switch keeps waiting for /v1/payment/resolve. An automatic refund needs the payer's address (not known on Bitcoin-like networks); one that cannot be made (dust, a blocked address) is left to the merchant.",
  response: AUTOREFUND_SCHEMA,
  errors: [],
  requestExample: { underpaid: true, overpaid: true },
  responseExample: { underpaid: true, overpaid: true },
  handle: (input, context) => setAutorefund(context.deps, merchantOf(context), input),
});
