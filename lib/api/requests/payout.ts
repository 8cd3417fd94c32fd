import { z } from "zod";
import type { InputSpec } from "@/lib/errors";
import { optionalText } from "@/lib/domain/input/optional-fields";

/** spec: POST /v1/payout — the body, whether alone or as an element of a mass or batch call. */
/** Prefixes of the order ids of payouts the service makes itself. */
export const RESERVED_ORDER_ID_PREFIXES = ["payoutlink:", "autowithdraw:", "refund:", "split:", "transfer:", "walletrefund:"] as const;

export const createPayoutBodySchema = z
  .object({
    amount: z.string().describe("Payout amount in `currency`, a decimal string with at most the asset's decimals."),
    currency: z.string().describe("Currency to pay out, e.g. `USDT` (see /v1/payout/services)."),
    // Order ids the service gives its own payouts (a claimed payout link, an auto-withdrawal, …)
    // are not the merchant's to take: a payout under one would stand in for the service's.
    order_id: z
      .string()
      .max(128)
      .refine((value) => !RESERVED_ORDER_ID_PREFIXES.some((prefix) => value.startsWith(prefix)), "reserved")
      .optional()
      .describe(
        "Required (`payout.order_id_required` without it). The payout's reference, unique per merchant: a repeat with the same terms returns the payout made first, other terms are `payout.duplicate_reference`. At most 128 characters; the prefixes `payoutlink:`, `autowithdraw:`, `refund:`, `split:`, `transfer:`, `walletrefund:` are the service's own.",
      ),
    address: z.string().max(256).optional().describe("Recipient address on the network (required to create a payout); an address of this service is refused."),
    network: optionalText.describe("Network id, e.g. `tron`. Needed for a coin on several networks unless the address fits only one of them."),
    is_subtract: z
      .boolean()
      .optional()
      .describe("true: the fee goes on top (the balance gives `amount` + fee, the recipient gets `amount`); false: the fee comes out of `amount`. Omitted: the payout fee-config applies."),
    memo: z.string().max(120).optional().describe("Destination tag or memo (TON comment, jetton forward payload), at most 120 characters; refused on networks without memos."),
    url_callback: optionalText.describe("This payout's own webhook URL: http(s), not a private or metadata address."),
    from_currency: optionalText.describe("`USDT` only: fund the payout by converting the merchant's USDT balance into `currency` at the live rate, just before the reservation."),
    source: z.enum(["api", "manual"]).optional().describe("`api` (default): approved at once. `manual`: waits for /v1/payout/approve by another key or user."),
  })
  .meta({ id: "PayoutRequest", description: "A payout to create, alone or as an element of a mass or batch call." });

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
