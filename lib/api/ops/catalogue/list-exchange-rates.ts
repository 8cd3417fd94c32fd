import { z } from "zod";
import { listExchangeRates } from "@/lib/services/catalogue/list-exchange-rates";
import { defineOperation } from "../../operation";
import { EXCHANGE_RATE_EXAMPLE, EXCHANGE_RATE_SCHEMA } from "../../serialize/catalogue";

export const listExchangeRatesOp = defineOperation({
  schema: z.object({
    currency_from: z.string().optional().describe("One pricing currency to quote (any case), e.g. `BTC` or `EUR`; omitted: every pricing currency."),
  }),
  invalidBody: "rate.bad_request",
  summary: "List exchange rates against USDT",
  description:
    "Quotes of the pricing currencies against USDT: how many USDT one unit is worth. An unknown `currency_from` gives an empty list, not an error; so does a currency the rate source does not price.",
  response: z.array(EXCHANGE_RATE_SCHEMA),
  errors: ["rate.unavailable"],
  requestExample: { currency_from: "BTC" },
  responseExample: EXCHANGE_RATE_EXAMPLE.slice(0, 1),
  handle: (input, context) => listExchangeRates(context.deps.rates, input.currency_from),
});
