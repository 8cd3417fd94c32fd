import { z } from "zod";
import { buildCurrencyCatalogue } from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";
import { defineOperation } from "../../operation";
import { CURRENCY_CATALOGUE_EXAMPLE, CURRENCY_CATALOGUE_SCHEMA } from "../../serialize/catalogue";

export const getCurrenciesOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payment.bad_request",
  summary: "Get the currency catalogue",
  description:
    "Public, without the envelope. `currencies`: every settlement currency (crypto only) with every network it is on, and whether deposits and payouts work there now. `pricing_currencies`: everything an invoice may be priced in, 15 coins and 23 fiats (a fiat can only be a price currency). The set may grow: read it from here rather than hard-coding it.",
  response: CURRENCY_CATALOGUE_SCHEMA,
  errors: [],
  responseExample: CURRENCY_CATALOGUE_EXAMPLE,
  handle: async (_input, context) => buildCurrencyCatalogue(networkAvailability(context.deps.config)),
});
