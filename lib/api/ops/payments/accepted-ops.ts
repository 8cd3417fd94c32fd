import { z } from "zod";
import { listAcceptedMethods, setAcceptedMethods } from "@/lib/services/accepted/accepted-methods";
import { defineOperation, defineWork } from "../../operation";
import { merchantOf } from "../context";

/** spec: Accepted-currency entry. */
const ACCEPTED_ENTRY_SCHEMA = z
  .object({
    currency: z.string().describe("A settlement coin's symbol, e.g. `USDT`."),
    network: z.string().describe("A network id that carries the coin, e.g. `tron`."),
  })
  .meta({ id: "AcceptedMethod", description: "A coin and network buyers may pay a currency-agnostic invoice with." });

const ACCEPTED_EXAMPLE = [
  { currency: "BTC", network: "bitcoin" },
  { currency: "USDT", network: "tron" },
];

export const listAcceptedOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payment.bad_request",
  summary: "List the accepted coins and networks",
  description: "The set a buyer may choose from on a currency-agnostic invoice, ordered by currency then network. An empty set means everything in the catalogue is accepted.",
  response: z.object({ accepted: z.array(ACCEPTED_ENTRY_SCHEMA).describe("Empty: everything in the catalogue is accepted.") }),
  errors: [],
  requestExample: {},
  responseExample: { accepted: ACCEPTED_EXAMPLE },
  handle: async (_input, context) => ({ accepted: await listAcceptedMethods(context.deps.db, merchantOf(context)) }),
});

export const setAcceptedOp = defineWork({
  schema: z.object({
    accepted: z
      .array(
        z.object({
          currency: z.string().min(1).describe("A settlement coin's symbol (case-insensitive)."),
          network: z.string().min(1).describe("A network id that carries the coin."),
        }),
      )
      .max(500)
      .describe("The whole new set, at most 500 entries; an empty array accepts everything."),
  }),
  invalidBody: "accepted.unknown_currency",
  fieldErrors: { "accepted.network": "accepted.no_network", "accepted.currency": "accepted.unknown_currency" },
  summary: "Replace the accepted coins and networks",
  description:
    "Replaces the whole accepted set with `accepted` (duplicates collapse); an empty array means accept everything in the catalogue. Every entry must be a settlement coin (`accepted.unknown_currency`) on a network that carries it (`accepted.no_network`); one bad entry changes nothing. Invoices already past selection keep their coin.",
  response: z.object({ ok: z.literal(true) }),
  errors: ["accepted.unknown_currency", "accepted.no_network"],
  requestExample: { accepted: ACCEPTED_EXAMPLE },
  responseExample: { ok: true },
  unit: setAcceptedMethods,
  args: (input, context) => ({ merchantId: merchantOf(context), entries: input.accepted }),
  answer: () => ({ ok: true }),
});
