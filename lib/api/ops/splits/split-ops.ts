import { z } from "zod";
import { defineOperation } from "../../operation";
import { merchantOf } from "../context";
import {
  CREATE_SPLIT_RULE_INPUT,
  createSplitRule,
  deleteSplitRule,
  getSplitConfig,
  listSplitRules,
  setSplitConfig,
} from "@/lib/services/splits/split-rules";
import { bpsToPercent } from "@/lib/domain/split/shares";

/** spec: POST /v1/split/rule — answers `rule_id` and `percent`. */
export const createSplitRuleOp = defineOperation({
  ...CREATE_SPLIT_RULE_INPUT,
  handle: async (input, context) => {
    const rule = await createSplitRule(context.deps, merchantOf(context), input, context.deps.now());
    return { rule_id: rule.id, percent: bpsToPercent(rule.percentBps) };
  },
});

export const listSplitRulesOp = defineOperation({
  schema: z.object({ include_deleted: z.boolean().optional() }),
  invalidBody: "split.bad_request",
  handle: (input, context) => listSplitRules(context.deps, merchantOf(context), input),
});

export const deleteSplitRuleOp = defineOperation({
  schema: z.object({ rule_id: z.string() }),
  invalidBody: "split.bad_request",
  fieldErrors: { rule_id: "split.bad_id" },
  handle: (input, context) => deleteSplitRule(context.deps, merchantOf(context), input.rule_id, context.deps.now()),
});

export const getSplitConfigOp = defineOperation({
  schema: z.object({}),
  invalidBody: "split.bad_request",
  handle: (_input, context) => getSplitConfig(context.deps, merchantOf(context)),
});

export const setSplitConfigOp = defineOperation({
  schema: z.object({ refund_hold_hours: z.number() }),
  invalidBody: "split.bad_request",
  fieldErrors: { refund_hold_hours: "split.bad_hold_hours" },
  handle: (input, context) => setSplitConfig(context.deps, merchantOf(context), input.refund_hold_hours),
});
