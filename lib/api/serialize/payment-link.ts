import { z } from "zod";
import type { PaymentLink } from "@/generated/prisma/client";
import { AMOUNT_MODES, checkoutPageUrl, isExpired, type AmountMode } from "@/lib/domain/payment-link/link-terms";

const linkAmount = (what: string) => z.string().describe(`${what}, a decimal string in \`currency\`.`);

/** The fields the management object and the public card share. */
const LINK_CARD_FIELDS = {
  link_id: z.uuid().describe("The link's identifier."),
  title: z.string().describe("Shown to the buyer."),
  description: z.string().describe("Shown to the buyer; empty when none."),
  amount_mode: z.enum(AMOUNT_MODES).describe("`fixed` (the link's amount), `open` (the buyer names it, within the limits when set) or `range` (the buyer names it within the limits)."),
  currency: z.string().describe("The price currency of the amounts (fiat or coin), e.g. `EUR`."),
  amount_fixed: linkAmount("The price, with `fixed` only").optional(),
  amount_min: linkAmount("The smallest amount a buyer may name; present only if set").optional(),
  amount_max: linkAmount("The largest amount a buyer may name; present only if set").optional(),
  pinned_currency: z.string().optional().describe("The settlement coin every checkout uses; present only if the link pins it."),
  pinned_network: z.string().optional().describe("The network every checkout uses; present only if the link pins it."),
};

/** Designed: the management object (create, list, info, toggle). */
export const PAYMENT_LINK_SCHEMA = z
  .object({
    ...LINK_CARD_FIELDS,
    url: z.string().describe("The public checkout page to hand to buyers."),
    is_active: z.boolean().describe("False after the link is disabled: its card and checkout answer `paylink.not_found`; invoices already made stay payable."),
    is_expired: z.boolean().describe("Whether `expires_at` has passed."),
    expires_at: z.iso.datetime().nullable().describe("When the link stops taking checkouts (RFC 3339, UTC); null when it never does."),
    url_callback: z.string().describe("The webhook URL of the invoices it makes; empty when none (the registered endpoint applies)."),
    url_return: z.string().describe("The back-to-store link of the invoices it makes; empty when none."),
    url_success: z.string().describe("Where the invoices it makes send the buyer after payment; empty when none."),
    created_at: z.iso.datetime().describe("Creation time (RFC 3339, UTC)."),
    updated_at: z.iso.datetime().describe("Last change (RFC 3339, UTC)."),
  })
  .meta({ id: "PaymentLink", description: "A reusable payment link, as its merchant manages it." });

/** spec: Public payment-link card. */
export const PUBLIC_LINK_CARD_SCHEMA = z
  .object(LINK_CARD_FIELDS)
  .meta({ id: "PublicLinkCard", description: "What a buyer sees of a payment link: nothing about the merchant." });

export function toPaymentLinkObject(link: PaymentLink, publicBaseUrl: string, now: Date): z.output<typeof PAYMENT_LINK_SCHEMA> {
  return {
    link_id: link.id,
    url: checkoutPageUrl(publicBaseUrl, link.id),
    title: link.title,
    description: link.description,
    amount_mode: link.amountMode as AmountMode,
    currency: link.currency,
    ...(link.amountFixed !== null ? { amount_fixed: link.amountFixed } : {}),
    ...(link.amountMin !== null ? { amount_min: link.amountMin } : {}),
    ...(link.amountMax !== null ? { amount_max: link.amountMax } : {}),
    ...(link.pinnedCurrency !== null ? { pinned_currency: link.pinnedCurrency } : {}),
    ...(link.pinnedNetwork !== null ? { pinned_network: link.pinnedNetwork } : {}),
    is_active: link.isActive,
    is_expired: isExpired(link, now),
    expires_at: link.expiresAt?.toISOString() ?? null,
    url_callback: link.urlCallback ?? "",
    url_return: link.urlReturn ?? "",
    url_success: link.urlSuccess ?? "",
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}

/** spec: Public payment-link card — nothing about the merchant. */
export function toPublicLinkCard(link: PaymentLink): z.output<typeof PUBLIC_LINK_CARD_SCHEMA> {
  return {
    link_id: link.id,
    title: link.title,
    description: link.description,
    amount_mode: link.amountMode as AmountMode,
    currency: link.currency,
    ...(link.amountMode === "fixed" ? { amount_fixed: link.amountFixed! } : {}),
    ...(link.amountMin !== null ? { amount_min: link.amountMin } : {}),
    ...(link.amountMax !== null ? { amount_max: link.amountMax } : {}),
    ...(link.pinnedCurrency !== null ? { pinned_currency: link.pinnedCurrency } : {}),
    ...(link.pinnedNetwork !== null ? { pinned_network: link.pinnedNetwork } : {}),
  };
}
