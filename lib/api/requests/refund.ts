import { z } from "zod";
import { optionalText } from "@/lib/domain/input/optional-fields";
import type { InputSpec } from "@/lib/errors";

/** spec: POST /v1/payment/refund — the body, alone or as an element of a refund batch. */
export const createRefundBodySchema = z
  .object({
    uuid: z.string().optional().describe("The payment to refund; give `uuid` or `order_id`."),
    order_id: z.string().optional().describe("The payment's `order_id`, when `uuid` is not given."),
    address: optionalText.describe("Where the refund goes. Default: the payer's address; required on Bitcoin-like networks, where it is not known."),
    network: optionalText.describe("Must be the payment's network when given: a refund goes back on the network the payment was received on."),
    amount: optionalText.describe("A partial refund, a decimal string in the payment's coin. Default: everything received not yet refunded."),
  })
  .meta({ id: "RefundRequest", description: "A refund to make, alone or as an element of a refund batch." });

export type CreateRefundInput = z.output<typeof createRefundBodySchema>;

export const CREATE_REFUND_INPUT: InputSpec<typeof createRefundBodySchema> = {
  schema: createRefundBodySchema,
  invalidBody: "refund.bad_request",
  fieldErrors: { uuid: "payment.bad_uuid", amount: "refund.bad_amount", address: "payout.bad_address" },
};
