import { z } from "zod";
import { listExchangeRates } from "@/lib/services/catalogue/list-exchange-rates";
import { defineOperation } from "../../operation";

export const listExchangeRatesOp = defineOperation({
  schema: z.object({ currency_from: z.string().optional() }),
  invalidBody: "rate.bad_request",
  handle: (input, context) => listExchangeRates(context.deps.rates, input.currency_from),
});
