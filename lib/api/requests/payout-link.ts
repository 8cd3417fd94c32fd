import { z } from "zod";
import { optionalText } from "@/lib/domain/input/optional-fields";
import type { InputSpec } from "@/lib/errors";

export const createPayoutLinkSchema = z
  .object({
    currency: z.string().describe("Crypto currency to reserve and pay out, e.g. `USDT`; fiat is impossible."),
    network: z.string().describe("Payout network id, e.g. `tron`."),
    amount: z.string().describe("Amount the link holds, a decimal string in `currency`; above the payout fee, which the recipient bears."),
    reference: optionalText.describe("Deduplication key, unique per merchant, at most 128 characters: a repeat is `payoutlink.duplicate_reference`."),
    title: optionalText.describe("Shown to the recipient, at most 200 characters."),
    note: optionalText.describe("Message to the recipient (claim page and e-mail), at most 1000 characters."),
    email: z
      .preprocess((value) => (value === "" || value === null ? undefined : value), z.email().max(254).optional())
      .describe("When set, the recipient is e-mailed the claim link, best effort: a failed delivery does not undo the link."),
    expires_in_hours: z.number().optional().describe("Lifetime in hours, clamped to 1–720 (fractions dropped); omitted or 0 gives 1 hour."),
  })
  .meta({ id: "PayoutLinkRequest", description: "A payout link to create, alone or as an element of a link batch." });

export const CREATE_PAYOUT_LINK_INPUT: InputSpec<typeof createPayoutLinkSchema> = {
  schema: createPayoutLinkSchema,
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { currency: "payoutlink.unknown_currency", network: "payoutlink.unknown_currency", amount: "payoutlink.bad_amount", email: "email.bad_address", reference: "payoutlink.bad_request" },
};

export const claimSchema = z.object({
  address: z
    .preprocess((value) => (value === "" || value === null ? undefined : value), z.string().max(256).optional())
    .describe("Required: the address to pay, on the check's network. The first address binds the check."),
  memo: z
    .preprocess((value) => (value === "" || value === null ? undefined : value), z.string().max(120).optional())
    .describe("Destination tag or memo, at most 120 characters; only on networks that take one (`memo_supported` on the card)."),
});
