import { z } from "zod";
import type { InputSpec } from "@/lib/errors";
import { optionalHttpUrl, optionalText } from "@/lib/domain/input/optional-fields";

/** spec: POST /v1/payment — the body, whether it arrives alone or as an element of a payment batch. */
export const createPaymentBodySchema = z
  .object({
    amount: z.string().describe("The price in `currency`: a positive decimal string with at most the currency's decimals (0 for JPY and KRW)."),
    currency: z.string().describe("The price currency: any pricing currency of `GET /v1/currencies` (fiat or coin), e.g. `USD`."),
    order_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe("Your reference, 1 to 128 characters, strongly recommended: a repeat while its invoice is live answers that invoice instead of creating another."),
    network: optionalText.describe("The settlement network, e.g. `tron`. See the table of currency and network modes."),
    to_currency: optionalText.describe("The settlement coin (never fiat), e.g. `USDT`. Defaults to `currency` only when `currency` is a coin."),
    lifetime: z.number().int().optional().describe("Seconds until the invoice expires: default 3600; clamped to 300–43200 (an out-of-range value is not an error)."),
    subtract: z.number().optional().describe("Deprecated. A payer-side network surcharge in percent, a whole number from 0 to 100."),
    accuracy_payment_percent: z.number().optional().describe("Under- and overpayment tolerance in percent, 0 to 5; overrides the merchant's setting."),
    url_callback: optionalText.describe("This invoice's own webhook URL: http(s), not a private or metadata address."),
    url_return: optionalHttpUrl.describe("The back-to-store link on the payment page (http(s), at most 2048 characters)."),
    url_success: optionalHttpUrl.describe("Where the page sends the buyer after payment (http(s), at most 2048 characters)."),
    additional_data: z.string().max(4096).optional().describe("Merchant-private data, at most 4096 characters: echoed in webhooks, hidden from the buyer."),
    payer_email: z
      .preprocess((value) => (value === "" ? undefined : value), z.email().max(254).optional())
      .describe("The payer's e-mail address: a receipt is sent there after payment, and it is the default recipient of send-email."),
    theme: z.enum(["dark", "light"]).optional().describe("The payment page's theme."),
    is_payment_multiple: z.boolean().optional().describe("Whether the buyer may pay an underpaid remainder with further transfers (default true)."),
    is_refresh: z.boolean().optional().describe("Revive an expired invoice of the same `order_id` (one that received nothing) with a new rate and term instead of creating a new one; without one, a normal creation."),
  })
  .meta({ id: "PaymentRequest", description: "An invoice to create, alone or as an element of a payment batch." });

/** The body and its error codes: one mapping for the single call and each batch element. */
export const CREATE_PAYMENT_INPUT: InputSpec<typeof createPaymentBodySchema> = {
  schema: createPaymentBodySchema,
  invalidBody: "payment.bad_request",
  fieldErrors: {
    amount: "payment.bad_amount",
    currency: "payment.unknown_currency",
    to_currency: "payment.unknown_to_currency",
    network: "payment.unsupported_network",
    subtract: "payment.bad_subtract",
    accuracy_payment_percent: "payment.bad_accuracy",
    url_callback: "payment.bad_url_callback",
  },
};
