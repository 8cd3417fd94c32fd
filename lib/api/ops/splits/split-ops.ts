import { z } from "zod";
import { defineOperation, defineWork } from "../../operation";
import { actorOf, merchantOf } from "../context";
import { createSplitRule, deleteSplitRule, getSplitConfig, listSplitRules, setSplitConfig } from "@/lib/services/splits/split-rules";
import { SPLIT_RULE_SCHEMA } from "@/lib/api/serialize/split-rule";
import { CREATE_SPLIT_RULE_INPUT } from "@/lib/api/requests/split-rule";
import { bpsToPercent } from "@/lib/domain/split/shares";

const RULE_ID_EXAMPLE = "c4e8a2f6-0b1d-4a3c-9e5f-7d1b3a5c9e2f";

/** spec: POST /v1/split/rule — answers `rule_id` and `percent`. */
export const createSplitRuleOp = defineWork({
  ...CREATE_SPLIT_RULE_INPUT,
  summary: "Create a split rule",
  description: [
    "From now on, `percent` of each incoming payment goes to a partner: another merchant of this service (`merchant_id`: an internal share, reversible — clawed back proportionally on refund, even after the window) or an address on a network (`address` with `network`: an external share, sent on chain, screened, not reversible). Give exactly one recipient.",
    "Shares are computed from what a payment actually received net of refunds, in the payment's coin, and are settled after the refund window `refund_hold_hours` (split config); within it a full refund cancels the share and a partial one reduces it. `percent` is above 0 and at most 100 in steps of 0.01; the merchant's active rules add up to at most 100 (`split.exceeds_100`).",
  ].join("\n\n"),
  response: z.object({
    rule_id: SPLIT_RULE_SCHEMA.shape.rule_id,
    percent: SPLIT_RULE_SCHEMA.shape.percent,
  }),
  errors: ["split.disabled", "split.self_destination", "split.exceeds_100", "payout.bad_address", "payout.address_network_mismatch", "compliance.blocked", "compliance.unavailable"],
  requestExample: { percent: 12.5, address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", network: "tron", note: "Reseller share" },
  responseExample: { rule_id: RULE_ID_EXAMPLE, percent: 12.5 },
  unit: createSplitRule,
  args: (input, context) => ({ merchantId: merchantOf(context), input, actor: actorOf(context) }),
  answer: (rule) => ({ rule_id: rule.id, percent: bpsToPercent(rule.percentBps) }),
});

export const listSplitRulesOp = defineOperation({
  schema: z.object({ include_deleted: z.boolean().optional().describe("Also list deleted rules (`active: false`).") }),
  invalidBody: "split.bad_request",
  summary: "List split rules",
  description: "The merchant's active split rules, oldest first; with `include_deleted`, the deleted ones too.",
  response: z.object({ items: z.array(SPLIT_RULE_SCHEMA) }),
  errors: ["split.disabled"],
  requestExample: {},
  responseExample: {
    items: [
      { rule_id: RULE_ID_EXAMPLE, percent: 12.5, active: true, note: "Reseller share", address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", network: "tron", reversible: false },
      { rule_id: "e1a3c5b7-9d2f-4e6a-8c0b-2f4d6a8c0e1b", percent: 5, active: true, note: "", merchant_id: "9b7d5f3a-1c2e-4d6f-8a0b-3c5e7a9b1d4f", reversible: true },
    ],
  },
  handle: (input, context) => listSplitRules(context.deps, merchantOf(context), input),
});

export const deleteSplitRuleOp = defineWork({
  schema: z.object({ rule_id: z.string().describe("The rule's `rule_id` (UUID).") }),
  invalidBody: "split.bad_request",
  fieldErrors: { rule_id: "split.bad_id" },
  summary: "Delete a split rule",
  description: "Payments settled from now on take no share under the rule; shares already accrued still go out. Deleting a deleted rule answers the same again.",
  response: z.object({ deleted: z.literal(true) }),
  errors: ["split.disabled", "split.not_found"],
  requestExample: { rule_id: RULE_ID_EXAMPLE },
  responseExample: { deleted: true },
  unit: deleteSplitRule,
  args: (input, context) => ({ merchantId: merchantOf(context), ruleId: input.rule_id }),
  answer: (deleted) => deleted,
});

const SPLIT_CONFIG_SCHEMA = z
  .object({ refund_hold_hours: z.int().describe("How long partners' shares wait for refunds before they are settled, in hours (0 to 2160).") })
  .meta({ id: "SplitConfig", description: "The refund window of split shares." });

export const getSplitConfigOp = defineOperation({
  schema: z.object({}),
  invalidBody: "split.bad_request",
  summary: "Get the split config",
  description: "The refund window partners' shares wait for before they are settled: within it a refund reduces or cancels a share.",
  response: SPLIT_CONFIG_SCHEMA,
  errors: ["split.disabled"],
  requestExample: {},
  responseExample: { refund_hold_hours: 72 },
  handle: (_input, context) => getSplitConfig(context.deps, merchantOf(context)),
});

export const setSplitConfigOp = defineWork({
  schema: z.object({ refund_hold_hours: z.number().describe("The refund window in hours, a whole number from 0 to 2160 (90 days).") }),
  invalidBody: "split.bad_request",
  fieldErrors: { refund_hold_hours: "split.bad_hold_hours" },
  summary: "Set the split config",
  description: "Sets the refund window of split shares; it applies to payments settled from now on.",
  response: SPLIT_CONFIG_SCHEMA,
  errors: ["split.disabled"],
  requestExample: { refund_hold_hours: 168 },
  responseExample: { refund_hold_hours: 168 },
  unit: setSplitConfig,
  args: (input, context) => ({ merchantId: merchantOf(context), hours: input.refund_hold_hours }),
  answer: (config) => config,
});
