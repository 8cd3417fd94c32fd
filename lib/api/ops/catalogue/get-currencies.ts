import { z } from "zod";
import { buildCurrencyCatalogue } from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";
import { defineOperation } from "../../operation";

export const getCurrenciesOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payment.bad_request",
  handle: async (_input, context) => buildCurrencyCatalogue(networkAvailability(context.deps.config)),
});
