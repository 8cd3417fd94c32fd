import { z } from "zod";
import type { InputSpec } from "@/lib/errors";
import { optionalText } from "@/lib/services/invoices/create-invoice-input";

/** spec: POST /v1/payout — the body, whether alone or as an element of a mass or batch call. */
/** Prefixes of the order ids of payouts the service makes itself. */
export const RESERVED_ORDER_ID_PREFIXES = ["payoutlink:", "autowithdraw:", "refund:", "split:", "transfer:", "walletrefund:"] as const;

export const createPayoutBodySchema = z.object({
  amount: z.string(),
  currency: z.string(),
  // Order ids the service gives its own payouts (a claimed payout link, an auto-withdrawal, …)
  // are not the merchant's to take: a payout under one would stand in for the service's.
  order_id: z
    .string()
    .max(128)
    .refine((value) => !RESERVED_ORDER_ID_PREFIXES.some((prefix) => value.startsWith(prefix)), "reserved")
    .optional(),
  address: z.string().max(256).optional(),
  network: optionalText,
  is_subtract: z.boolean().optional(),
  memo: z.string().max(120).optional(),
  url_callback: optionalText,
  from_currency: optionalText,
  source: z.enum(["api", "manual"]).optional(),
});

export const CREATE_PAYOUT_INPUT: InputSpec<typeof createPayoutBodySchema> = {
  schema: createPayoutBodySchema,
  invalidBody: "payout.bad_request",
  fieldErrors: {
    amount: "payout.bad_amount",
    currency: "payout.unknown_currency",
    order_id: "payout.reserved_order_id",
    address: "payout.bad_address",
    network: "payout.asset_mismatch",
    memo: "payout.memo_too_long",
    url_callback: "payout.bad_url_callback",
    from_currency: "payout.from_currency_unsupported",
  },
};
