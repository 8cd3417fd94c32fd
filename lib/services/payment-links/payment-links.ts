import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Invoice, PaymentLink, Prisma } from "@/generated/prisma/client";
import type { GatewayConfig } from "@/lib/config/env";
import { findNetwork, findPricingCurrency, findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { checkCheckoutAmount, largestLinkAmount, MAX_WHOLE_DIGITS } from "@/lib/domain/payment-link/checkout-amount";
import { AppError } from "@/lib/errors";
import { vetMerchantUrl } from "@/lib/net/outbound-url";
import { createInvoice, type InvoiceDeps, type InvoicePlan } from "@/lib/services/invoices/create-invoice";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { isUuid } from "@/lib/domain/input/uuid";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
import { AMOUNT_MODES, isExpired, type AmountMode } from "@/lib/domain/payment-link/link-terms";
import type { checkoutSchema, createPaymentLinkSchema } from "@/lib/api/requests/payment-link";
import { containsText } from "@/lib/db/text-search";

export type PaymentLinkDeps = InvoiceDeps & { config: Pick<GatewayConfig, "paymentLinksEnabled" | "publicBaseUrl"> };

const MAX_TITLE = 200;
/** RFC 3339 date-time (a four-digit year). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const MAX_DESCRIPTION = 2000;

/**
 * Designed: POST /v1/payment/link. A title, an amount mode with its amounts in the price
 * currency (checked against its decimals), an optional settlement coin and network every
 * checkout uses, an optional expiry and the URLs the created invoices carry.
 */
export async function createPaymentLink(deps: PaymentLinkDeps, merchantId: string, input: z.output<typeof createPaymentLinkSchema>): Promise<PaymentLink> {
  assertLinksEnabled(deps);
  const title = input.title.trim();
  if (title === "" || title.length > MAX_TITLE) throw new AppError("paylink.bad_title");
  const description = input.description ?? "";
  if (description.length > MAX_DESCRIPTION) throw new AppError("paylink.bad_description");
  if (!(AMOUNT_MODES as readonly string[]).includes(input.amount_mode)) throw new AppError("paylink.bad_mode");
  const mode = input.amount_mode as AmountMode;
  const pricing = findPricingCurrency(normalizeSymbol(input.currency));
  if (!pricing) throw new AppError("paylink.unknown_currency", `${input.currency} is not a price currency.`);

  const amountOf = (value: string | undefined, field: string): string | null => {
    if (value === undefined) return null;
    const minor = parseAmount(value, pricing.decimals);
    if (minor === null || minor <= 0n) throw new AppError("paylink.not_positive", `${field} must be a positive amount of ${pricing.symbol} with at most ${pricing.decimals} decimals.`);
    if (minor > largestLinkAmount(pricing.decimals)) throw new AppError("paylink.amount_too_large", `${field} has more than ${MAX_WHOLE_DIGITS} digits before the point.`);
    return formatAmount(minor, pricing.decimals);
  };
  const fixed = amountOf(input.amount, "amount");
  const min = amountOf(input.amount_min, "amount_min");
  const max = amountOf(input.amount_max, "amount_max");
  if (mode === "fixed" && (fixed === null || min !== null || max !== null)) throw new AppError("paylink.amount_required", "A fixed link takes amount, and no amount_min or amount_max.");
  if (mode !== "fixed" && fixed !== null) throw new AppError("paylink.bad_mode", `amount is for fixed links; an ${mode} link takes amount_min and amount_max.`);
  if (mode === "range" && min === null && max === null) throw new AppError("paylink.amount_required", "A range link takes amount_min, amount_max or both.");
  if (min !== null && max !== null && parseAmount(min, pricing.decimals)! > parseAmount(max, pricing.decimals)!) throw new AppError("paylink.bad_range");

  const pinned = pinnedMethod(input.pinned_currency, input.pinned_network);
  let expiresAt: Date | null = null;
  if (input.expires_at !== undefined) {
    if (!RFC3339.test(input.expires_at)) throw new AppError("paylink.bad_expiry", "expires_at must be an RFC 3339 time in the future.");
    expiresAt = new Date(input.expires_at);
    if (Number.isNaN(expiresAt.getTime()) || expiresAt <= deps.now()) throw new AppError("paylink.bad_expiry", "expires_at must be an RFC 3339 time in the future.");
  }
  const urlCallback =
    input.url_callback === undefined ? undefined : await vetMerchantUrl(input.url_callback, { allowLoopback: deps.config.allowLoopbackUrls, refusal: "paylink.bad_url", field: "url_callback: " });
  const now = deps.now();
  return deps.db.paymentLink.create({
    data: {
      id: randomUUID(),
      merchantId,
      title,
      description,
      amountMode: mode,
      currency: pricing.symbol,
      amountFixed: fixed,
      amountMin: min,
      amountMax: max,
      pinnedCurrency: pinned.currency,
      pinnedNetwork: pinned.network,
      urlCallback: urlCallback ?? null,
      urlReturn: input.url_return ?? null,
      urlSuccess: input.url_success ?? null,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    },
  });
}

/** A pinned coin and network, each optional, checked against the catalogue (a coin with a network must be carried there). */
function pinnedMethod(currencyInput: string | undefined, networkInput: string | undefined): { currency: string | null; network: string | null } {
  const currency = currencyInput === undefined ? null : normalizeSymbol(currencyInput);
  const network = networkInput === undefined ? null : normalizeNetworkId(networkInput);
  if (currency !== null && !isSettlementSymbol(currency)) throw new AppError("paylink.unknown_currency", `${currencyInput} is not a settlement coin.`);
  if (network !== null && !findNetwork(network)) throw new AppError("payment.unsupported_network", `${networkInput} is not a network of the catalogue.`);
  if (currency !== null && network !== null && !findSettlementAsset(currency, network)) throw new AppError("payment.unsupported_network", `${currency} is not carried on ${network}.`);
  return { currency, network };
}

/** A merchant's link by id: `paylink.bad_id` for a malformed one, `paylink.not_found` for a missing one or another merchant's. */
export async function getMerchantPaymentLinkOrThrow(deps: PaymentLinkDeps, merchantId: string, linkId: string): Promise<PaymentLink> {
  assertLinksEnabled(deps);
  if (!isUuid(linkId)) throw new AppError("paylink.bad_id");
  const link = await deps.db.paymentLink.findFirst({ where: { id: linkId.toLowerCase(), merchantId } });
  if (!link) throw new AppError("paylink.not_found");
  return link;
}

/** Designed: POST /v1/payment/link/list — newest first, keyset-paginated. */
export async function listPaymentLinks(deps: PaymentLinkDeps, merchantId: string, page: { limit: number; cursor?: string; query?: string }) {
  assertLinksEnabled(deps);
  const position = page.cursor ? decodeCursor(page.cursor, "paylink.bad_cursor") : null;
  // The cabinet's search box: part of the title or the description, any case; or the link's id.
  const query = page.query?.trim() ?? "";
  const matches: Prisma.PaymentLinkWhereInput[] = [{ title: containsText(query) }, { description: containsText(query) }];
  if (isUuid(query)) matches.push({ id: query.toLowerCase() });
  const rows = await deps.db.paymentLink.findMany({ where: { merchantId, AND: [query === "" ? {} : { OR: matches }, after(position)] }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit + 1 });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? encodeCursor(items[items.length - 1]) : null };
}

/** Designed: POST /v1/payment/link/toggle — enables or disables (`is_active`; omitted, flips). Invoices already made stay payable. */
export async function togglePaymentLink(deps: PaymentLinkDeps, merchantId: string, input: { link_id: string; is_active?: boolean }): Promise<PaymentLink> {
  const link = await getMerchantPaymentLinkOrThrow(deps, merchantId, input.link_id);
  return deps.db.paymentLink.update({ where: { id: link.id }, data: { isActive: input.is_active ?? !link.isActive, updatedAt: deps.now() } });
}

/** spec: GET /v1/link/{id} — a link anyone may open: enabled and not expired; otherwise not found. */
export async function openPublicLink(deps: PaymentLinkDeps, linkId: string): Promise<PaymentLink> {
  assertLinksEnabled(deps);
  if (!isUuid(linkId)) throw new AppError("paylink.bad_id");
  const link = await deps.db.paymentLink.findUnique({ where: { id: linkId.toLowerCase() } });
  if (!link || !link.isActive || isExpired(link, deps.now())) throw new AppError("paylink.not_found");
  return link;
}

/** The link's checks, then the invoice's (see createInvoice). */
async function prepareCheckout(deps: PaymentLinkDeps, { linkId, input }: { linkId: string; input: z.output<typeof checkoutSchema> }): Promise<InvoicePlan> {
  const link = await openPublicLink(deps, linkId);
  const pricing = findPricingCurrency(link.currency)!;
  let amount: string;
  if (link.amountMode === "fixed") {
    amount = link.amountFixed!;
  } else {
    const given = textOf(input.amount);
    if (given === undefined) throw new AppError("paylink.amount_required");
    const check = checkCheckoutAmount(typeof given === "string" ? given : "-", { decimals: pricing.decimals, min: link.amountMin, max: link.amountMax });
    if (!check.ok) {
      if (check.problem === "below_min") throw new AppError("paylink.below_min", `The amount is below ${link.amountMin} ${link.currency}.`);
      if (check.problem === "above_max") throw new AppError("paylink.above_max", `The amount is above ${link.amountMax ?? "the largest amount"} ${link.currency}.`);
      throw new AppError("paylink.not_positive", `amount must be a positive amount of ${pricing.symbol} with at most ${pricing.decimals} decimals.`);
    }
    amount = check.amount;
  }
  // A pinned coin or network wins over whatever the buyer sent.
  const givenCurrency = link.pinnedCurrency === null ? textOf(input.currency) : undefined;
  if (givenCurrency !== undefined && typeof givenCurrency !== "string") throw new AppError("paylink.unknown_currency", "currency must be a coin's symbol.");
  const chosenCurrency = link.pinnedCurrency ?? (givenCurrency === undefined ? undefined : normalizeSymbol(givenCurrency));
  if (chosenCurrency !== undefined && !isSettlementSymbol(chosenCurrency)) throw new AppError("paylink.unknown_currency", `${givenCurrency} is not a settlement coin.`);
  const givenNetwork = link.pinnedNetwork === null ? textOf(input.network) : undefined;
  if (givenNetwork !== undefined && typeof givenNetwork !== "string") throw new AppError("payment.unsupported_network", "network must be a network's id.");
  const network = link.pinnedNetwork ?? givenNetwork;
  return createInvoice.prepare(deps, {
    merchantId: link.merchantId,
    input: {
      amount,
      currency: link.currency,
      ...(chosenCurrency !== undefined ? { to_currency: chosenCurrency } : {}),
      ...(network !== undefined ? { network } : {}),
      ...(input.payer_email !== undefined ? { payer_email: input.payer_email } : {}),
      ...(link.urlCallback ? { url_callback: link.urlCallback } : {}),
      ...(link.urlReturn ? { url_return: link.urlReturn } : {}),
      ...(link.urlSuccess ? { url_success: link.urlSuccess } : {}),
    },
    paymentLinkId: link.id,
  });
}

/**
 * spec: POST /v1/link/{id}/checkout. Every call a new invoice of the link's merchant: the fixed
 * amount, or the buyer's within the link's limits; the pinned coin and network win over the
 * buyer's; nothing pinned or chosen gives a currency-agnostic invoice the buyer picks a coin for.
 */
export const checkoutPaymentLink = { prepare: prepareCheckout, execute: createInvoice.execute } satisfies UnitOfWork<{ linkId: string; input: z.output<typeof checkoutSchema> }, InvoicePlan, Invoice>;

/** A buyer's value: absent when missing, null or ""; a string as it is; anything else as it is (refused by the caller). */
function textOf(value: unknown): string | object | number | boolean | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  return value as string | object | number | boolean;
}

function assertLinksEnabled(deps: { config: Pick<GatewayConfig, "paymentLinksEnabled"> }): void {
  if (!deps.config.paymentLinksEnabled) throw new AppError("paylink.disabled");
}
