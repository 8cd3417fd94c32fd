import { z } from "zod";
import { listAcceptedMethods, setAcceptedMethods } from "@/lib/services/accepted/accepted-methods";
import { defineOperation } from "../../operation";
import { merchantOf } from "../context";

export const listAcceptedOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payment.bad_request",
  handle: async (_input, context) => ({ accepted: await listAcceptedMethods(context.deps.db, merchantOf(context)) }),
});

export const setAcceptedOp = defineOperation({
  schema: z.object({ accepted: z.array(z.object({ currency: z.string().min(1), network: z.string().min(1) })).max(500) }),
  invalidBody: "accepted.unknown_currency",
  fieldErrors: { "accepted.network": "accepted.no_network", "accepted.currency": "accepted.unknown_currency" },
  handle: async (input, context) => {
    await setAcceptedMethods(context.deps.db, merchantOf(context), input.accepted);
    return { ok: true };
  },
});
