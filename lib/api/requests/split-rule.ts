import { z } from "zod";
import type { InputSpec } from "@/lib/errors";

/** spec: POST /v1/split/rule — the body. */
export const createSplitRuleSchema = z.object({
  percent: z.number().describe("The share of each incoming payment, above 0 and at most 100, in steps of 0.01; the merchant's active rules add up to at most 100."),
  address: z.string().optional().describe("An external recipient's address (with `network`): its share is sent on chain and cannot be reversed. Give `address` or `merchant_id`, not both."),
  network: z.string().optional().describe("The network of `address`, required with it."),
  merchant_id: z.string().optional().describe("An internal recipient: another merchant of this service (UUID); its share is reversible, clawed back on refund."),
  note: z.string().optional().describe("A note for the merchant, at most 255 characters."),
});

export const CREATE_SPLIT_RULE_INPUT: InputSpec<typeof createSplitRuleSchema> = {
  schema: createSplitRuleSchema,
  invalidBody: "split.bad_request",
  fieldErrors: { percent: "split.bad_percent", address: "split.bad_destination", network: "split.network_required", merchant_id: "split.bad_merchant", note: "split.bad_note" },
};
