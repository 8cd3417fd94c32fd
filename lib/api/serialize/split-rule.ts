import { z } from "zod";
import type { SplitRule } from "@/generated/prisma/client";
import { bpsToPercent } from "@/lib/domain/split/shares";

/** spec: Split rule. */
export const SPLIT_RULE_SCHEMA = z
  .object({
    rule_id: z.guid().describe("The rule's identifier."),
    percent: z.number().describe("The share of each incoming payment, in percent (two decimals at most)."),
    active: z.boolean().describe("False once deleted: payments settled after that take no share."),
    note: z.string().describe("As given at creation; empty when none."),
    address: z.string().optional().describe("External rules only: the recipient's address."),
    network: z.string().optional().describe("External rules only: the network of `address`."),
    merchant_id: z.guid().optional().describe("Internal rules only: the recipient merchant."),
    reversible: z.boolean().describe("True for internal rules (a share is clawed back on refund), false for external ones (sent on chain)."),
  })
  .meta({ id: "SplitRule", description: "A split rule: a percentage of each incoming payment that goes to a partner." });

export type SplitRuleObject = z.output<typeof SPLIT_RULE_SCHEMA>;

export function toSplitRuleObject(rule: SplitRule): SplitRuleObject {
  const recipient = rule.partnerMerchantId ? { merchant_id: rule.partnerMerchantId } : { address: rule.address!, network: rule.network! };
  return { rule_id: rule.id, percent: bpsToPercent(rule.percentBps), active: rule.active, note: rule.note, ...recipient, reversible: rule.partnerMerchantId !== null };
}
