import { z } from "zod";
import type { InputSpec } from "@/lib/errors";

/** "" is treated as absent: clients often send empty strings for unused optional fields. */
export const optionalText = z.preprocess((value) => (value === "" || value === null ? undefined : value), z.string().optional());
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), "must be an http(s) URL");
/** An optional http(s) URL the buyer is sent to ("" counts as absent). */
export const optionalHttpUrl = z.preprocess((value) => (value === "" ? undefined : value), httpUrl.optional());
export const PAYMENT_STATUSES = ["select", "check", "confirm_check", "wrong_amount_waiting", "paid", "paid_over", "wrong_amount", "cancel"] as const;

/** spec: POST /v1/payment — the body, whether it arrives alone or as an element of a payment batch. */
export const createPaymentBodySchema = z.object({
  amount: z.string(),
  currency: z.string(),
  order_id: z.string().min(1).max(128).optional(),
  network: optionalText,
  to_currency: optionalText,
  lifetime: z.number().int().optional(),
  subtract: z.number().optional(),
  accuracy_payment_percent: z.number().optional(),
  url_callback: optionalText,
  url_return: optionalHttpUrl,
  url_success: optionalHttpUrl,
  additional_data: z.string().max(4096).optional(),
  payer_email: z.preprocess((value) => (value === "" ? undefined : value), z.email().max(254).optional()),
  theme: z.enum(["dark", "light"]).optional(),
  is_payment_multiple: z.boolean().optional(),
  is_refresh: z.boolean().optional(),
});

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
