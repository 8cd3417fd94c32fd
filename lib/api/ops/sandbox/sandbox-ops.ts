import { z } from "zod";
import { AppError, isAppError } from "@/lib/errors";
import { expirePayoutLinkNow, toPayoutLinkObject } from "@/lib/services/payout-links/payout-links";
import { assertSandboxEnabled, sandboxDeposit, sandboxExpireInvoice, sandboxMine } from "@/lib/services/sandbox/sandbox-operations";
import { defineOperation } from "../../operation";
import { toPayment } from "../../serialize/payment";
import { merchantOf } from "../context";

export const sandboxDepositOp = defineOperation({
  schema: z.object({ network: z.string(), currency: z.string(), address: z.string(), amount: z.string(), from_address: z.string().optional() }),
  invalidBody: "sandbox.bad_request",
  fieldErrors: { address: "sandbox.bad_address", amount: "sandbox.bad_amount" },
  handle: (input, context) => sandboxDeposit(context.deps, input),
});

export const sandboxMineOp = defineOperation({
  schema: z.object({ network: z.string(), blocks: z.number().int().optional() }),
  invalidBody: "sandbox.bad_request",
  handle: (input, context) => sandboxMine(context.deps, input),
});

export const sandboxExpireOp = defineOperation({
  schema: z.object({ uuid: z.string().optional(), link_id: z.string().optional() }),
  invalidBody: "sandbox.bad_request",
  handle: async (input, context) => {
    assertSandboxEnabled(context.deps.config);
    if (input.uuid !== undefined) {
      return toPayment(await sandboxExpireInvoice(context.deps, merchantOf(context), input.uuid), context.deps.config.publicBaseUrl);
    }
    if (input.link_id !== undefined) {
      try {
        return toPayoutLinkObject(await expirePayoutLinkNow(context.deps, merchantOf(context), input.link_id), { publicBaseUrl: context.deps.config.publicBaseUrl });
      } catch (error) {
        if (isAppError(error) && (error.code === "payoutlink.not_found" || error.code === "payoutlink.bad_id")) throw new AppError("sandbox.not_found");
        throw error;
      }
    }
    throw new AppError("sandbox.bad_request", "Give uuid or link_id.");
  },
});
