import { z } from "zod";
import { listServiceEntries } from "@/lib/services/catalogue/list-service-entries";
import { defineOperation } from "../../operation";

export const listPaymentServicesOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payment.bad_request",
  handle: (_input, context) => listServiceEntries(context.deps, "payment"),
});

export const listPayoutServicesOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payout.bad_request",
  handle: (_input, context) => listServiceEntries(context.deps, "payout"),
});
