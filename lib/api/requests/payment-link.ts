import { z } from "zod";
import { optionalHttpUrl, optionalText } from "@/lib/domain/input/optional-fields";
import type { InputSpec } from "@/lib/errors";

const absentWhenNull = (value: unknown) => (value === null ? undefined : value);

const optionalUrl = z.preprocess((value) => (value === "" || value === null ? undefined : value), z.string().max(2048).optional());

const optionalPageUrl = z.preprocess(absentWhenNull, optionalHttpUrl);

/** Designed: POST /v1/payment/link — the body. */
export const createPaymentLinkSchema = z.object({
  title: z.string().describe("Shown to the buyer: 1 to 200 characters after trimming."),
  description: optionalText.describe("Shown to the buyer: at most 2000 characters."),
  amount_mode: z.string().describe("`fixed` (takes `amount`), `open` (the buyer names the amount, within `amount_min`/`amount_max` when given) or `range` (takes `amount_min`, `amount_max` or both)."),
  currency: z.string().describe("The price currency of the amounts: any pricing currency of the catalogue, fiat or coin."),
  amount: optionalText.describe("With `fixed` only: the price, a positive decimal string within the currency's decimals."),
  amount_min: optionalText.describe("With `open` or `range`: the smallest amount a buyer may name (decimal string)."),
  amount_max: optionalText.describe("With `open` or `range`: the largest amount a buyer may name (decimal string); not below `amount_min`."),
  pinned_currency: optionalText.describe("A settlement coin every checkout uses; omitted, the buyer chooses."),
  pinned_network: optionalText.describe("A network every checkout uses (it must carry `pinned_currency` when both are given); omitted, the buyer chooses."),
  expires_at: optionalText.describe("When the link stops taking checkouts: an RFC 3339 time in the future; omitted, never."),
  url_callback: optionalUrl.describe("The webhook URL of the invoices it makes: http(s), not a private or metadata address."),
  url_return: optionalPageUrl.describe("The back-to-store link of the invoices it makes (http(s))."),
  url_success: optionalPageUrl.describe("Where the invoices it makes send the buyer after payment (http(s))."),
});

export const CREATE_PAYMENT_LINK_INPUT: InputSpec<typeof createPaymentLinkSchema> = {
  schema: createPaymentLinkSchema,
  invalidBody: "paylink.bad_request",
  fieldErrors: {
    title: "paylink.bad_title",
    amount_mode: "paylink.bad_mode",
    currency: "paylink.unknown_currency",
    amount: "paylink.not_positive",
    amount_min: "paylink.not_positive",
    amount_max: "paylink.not_positive",
    expires_at: "paylink.bad_expiry",
    url_callback: "paylink.bad_url",
    url_return: "paylink.bad_url",
    url_success: "paylink.bad_url",
  },
};

/** spec: POST /v1/link/{id}/checkout — the body. */
export const checkoutSchema = z.object({
  // Checked against the link, not the schema: a fixed amount or a pinned coin ignores them.
  amount: z.unknown().optional().describe("A decimal string in the link's currency: required for `open` and `range` links, ignored for `fixed`."),
  currency: z.unknown().optional().describe("The settlement coin (a string), needed only if the link does not pin one; a pinned coin wins."),
  network: z.unknown().optional().describe("The network (a string), needed only if the link does not pin one; a pinned network wins."),
  payer_email: z
    .preprocess((value) => (value === "" || value === null ? undefined : value), z.email().max(254).optional())
    .describe("The buyer's e-mail address: a receipt is sent there after payment."),
});

export const CHECKOUT_INPUT: InputSpec<typeof checkoutSchema> = {
  schema: checkoutSchema,
  invalidBody: "paylink.bad_request",
  fieldErrors: { payer_email: "email.bad_address" },
};
