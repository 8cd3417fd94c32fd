import { z } from "zod";
import { addAllowlistEntry, getAllowlist, removeAllowlistEntry, setAllowlistEnabled } from "@/lib/services/allowlist/manage-allowlist";
import { defineOperation, type OperationContext } from "../../operation";

function merchantOf(context: OperationContext): string {
  if (!context.merchantId) throw new Error("signed operation without a merchant");
  return context.merchantId;
}

const cidrBodySchema = z.object({ cidr: z.string() });

export const listAllowlistOp = defineOperation({
  schema: z.object({}),
  invalidBody: "apiallow.bad_request",
  handle: (_input, context) => getAllowlist(context.deps.db, merchantOf(context)),
});

export const addAllowlistEntryOp = defineOperation({
  schema: cidrBodySchema,
  invalidBody: "apiallow.bad_cidr",
  handle: (input, context) => addAllowlistEntry(context.deps.db, merchantOf(context), input.cidr),
});

export const removeAllowlistEntryOp = defineOperation({
  schema: cidrBodySchema,
  invalidBody: "apiallow.bad_cidr",
  handle: (input, context) => removeAllowlistEntry(context.deps.db, merchantOf(context), input.cidr),
});

export const enableAllowlistOp = defineOperation({
  schema: z.object({ enabled: z.boolean() }),
  invalidBody: "apiallow.bad_enabled",
  handle: (input, context) => setAllowlistEnabled(context.deps.db, merchantOf(context), input.enabled),
});
