import { randomUUID } from "node:crypto";
import type { GatewayConfig } from "@/lib/config/env";
import type { Db, Tx } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { RateProvider } from "@/lib/rates";
import type { Invoice, Prisma } from "@/generated/prisma/client";
import {
  findPricingCurrency,
  isSettlementSymbol,
  listNetworksOfSymbol,
  normalizeNetworkId,
  normalizeSymbol,
  type NetworkId,
} from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";
import { allocateDepositAddress, takeDepositAddress, type AllocatedAddress } from "@/lib/chains/allocate-address";
import { ensureWatchCursor } from "@/lib/chains/ensure-watch-cursor";
import { addressChainOf } from "@/lib/chains/registry";
import { loadKeyMaterial, type KeyMaterial } from "@/lib/chains/key-material";
import type { AddressChain } from "@/lib/chains/addresses";
import { DEFAULT_PLATFORM_FEE } from "@/lib/domain/fees/platform-fee";
import { clampLifetime, resolveSettlementTarget, type SettlementTarget } from "@/lib/domain/invoice/settlement-target";
import { parseAmount } from "@/lib/domain/money/amount";
import { AppError } from "@/lib/errors";
import { vetMerchantUrl } from "@/lib/net/outbound-url";
import { fetchPricesOrThrow, networkMinimumUsdMinor, quoteInSettlement, requoteStoredInvoice, requoteSymbols, settleableNetworks, smallestMinimumUsdMinor } from "./pricing";
import type { Ratio } from "@/lib/domain/money/ratio";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { insertInvoice, type NewInvoiceRow } from "./insert-invoices";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import type { MerchantInvoiceTerms } from "@/lib/domain/invoice/merchant-terms";

export interface CreateInvoiceInput {
  amount: string;
  currency: string;
  order_id?: string;
  network?: string;
  to_currency?: string;
  lifetime?: number;
  subtract?: number;
  accuracy_payment_percent?: number;
  url_callback?: string;
  url_return?: string;
  url_success?: string;
  additional_data?: string;
  payer_email?: string;
  theme?: "dark" | "light";
  is_payment_multiple?: boolean;
  is_refresh?: boolean;
}

export interface InvoiceDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "allowLoopbackUrls">;
  rates: RateProvider;
  now(): Date;
}

const CATALOGUE_RULES = {
  isFiat: (symbol: string) => findPricingCurrency(symbol)?.isFiat ?? false,
  isPricingCurrency: (symbol: string) => findPricingCurrency(symbol) !== null,
  isSettlementSymbol,
  networksOf: (symbol: string) => listNetworksOfSymbol(symbol),
};

/** Checks everything about a create request that needs no database, returning the normalised terms. */
export async function validateCreateRequest(deps: InvoiceDeps, input: CreateInvoiceInput) {
  const currency = normalizeSymbol(input.currency);
  const target = resolveSettlementTarget(
    {
      currency,
      toCurrency: input.to_currency ? normalizeSymbol(input.to_currency) : undefined,
      network: input.network ? normalizeNetworkId(input.network) : undefined,
    },
    CATALOGUE_RULES,
  );
  const pricing = findPricingCurrency(currency)!;
  const priceMinor = parseAmount(input.amount, pricing.decimals);
  if (priceMinor === null || priceMinor <= 0n) throw new AppError("payment.bad_amount");
  const subtract = input.subtract ?? 0;
  if (!Number.isInteger(subtract) || subtract < 0 || subtract > 100) throw new AppError("payment.bad_subtract");
  const accuracy = input.accuracy_payment_percent;
  if (accuracy !== undefined && !(accuracy >= 0 && accuracy <= 5)) throw new AppError("payment.bad_accuracy");
  const urlCallback =
    input.url_callback !== undefined && input.url_callback !== ""
      ? await vetMerchantUrl(input.url_callback, { allowLoopback: deps.config.allowLoopbackUrls, refusal: "payment.bad_url_callback", field: "url_callback: " })
      : undefined;
  const isServed = (network: string) => networkAvailability(deps.config)(network).deposit;
  if (target.kind === "fixed" && !isServed(target.network)) throw new AppError("payment.unsupported_network", `${target.network} is not available on this service.`);
  return { currency, pricing, priceMinor, subtract, accuracyBps: accuracy === undefined ? undefined : Math.round(accuracy * 100), urlCallback, target, isServed };
}

export type ValidatedRequest = Awaited<ReturnType<typeof validateCreateRequest>>;

/** A create request: the merchant's, with what its caller adds. */
export interface CreateInvoiceArgs {
  merchantId: string;
  input: CreateInvoiceInput;
  /** The id to create it under (a batch element, which may repeat itself after a crash). */
  invoiceId?: string;
  /** The payment link a buyer checked it out from. */
  paymentLinkId?: string;
  /** The merchant's terms when the caller has them (a signed request reads them with its key); read here otherwise. */
  merchantTerms?: MerchantInvoiceTerms;
}

/** A create request after its checks, quote and address: the invoice that already answers it, or what the new one is made of. */
export type InvoicePlan = { found: Invoice } | NewInvoicePlan;

interface NewInvoicePlan {
  args: CreateInvoiceArgs;
  terms: NewInvoiceTerms;
  prices: Map<string, Ratio>;
  now: Date;
  keys: KeyMaterial | null;
  addressChain: AddressChain;
  /** The address taken before the transaction; null when the order's lock may find it answered. */
  preallocated: AllocatedAddress | null;
  /**
   * The whole row, when nothing needs a lock (no order_id, no id of the caller's): its insert is
   * atomic by itself and may share a statement with other requests' (see lockFreeRowOf).
   */
  lockFreeRow: NewInvoiceRow | null;
}

/** The merchant's invoice terms, from its row. */
export async function readMerchantInvoiceTerms(db: Db, merchantId: string): Promise<MerchantInvoiceTerms> {
  const merchant = await db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { feePercentBps: true, feeFixedUsdMinor: true, accuracyBps: true } });
  return { ...merchant, feeFixedUsdMinor: merchant.feeFixedUsdMinor === null ? null : toMinor(merchant.feeFixedUsdMinor) };
}

/** A checked, quoted create request: everything of the invoice except its id and address. */
export interface NewInvoiceTerms {
  target: SettlementTarget;
  /** The key tree's network whose next address the invoice takes; null until the buyer selects. */
  addressNetwork: NetworkId | null;
  /** The columns every new invoice of this request has. */
  columns: Omit<Prisma.InvoiceCreateManyInput, "id" | "merchantId" | "address" | "addressIndex" | "orderId" | "paymentLinkId" | "expiresAt"> & {
    expiresAt: Date;
    lifetimeSeconds: number;
  };
}

/** Symbols whose USD prices a create request needs (the price currency, and the coin when fixed). */
export function pricedSymbols(request: ValidatedRequest): string[] {
  return [request.pricing.symbol, ...(request.target.kind === "fixed" ? [request.target.symbol] : [])];
}

/**
 * Quotes a checked create request at the given prices and merchant settings, and refuses one below
 * the network's minimum: the terms a new invoice is written with.
 */
export function quoteNewInvoice(
  deps: Pick<InvoiceDeps, "rates">,
  input: CreateInvoiceInput,
  request: ValidatedRequest,
  merchant: MerchantInvoiceTerms,
  prices: Map<string, Ratio>,
  now: Date,
): NewInvoiceTerms {
  const { target, pricing } = request;
  const lifetimeSeconds = clampLifetime(input.lifetime);
  const expiresAt = new Date(now.getTime() + lifetimeSeconds * 1000);
  const feeFixedUsdMinor = merchant.feeFixedUsdMinor ?? DEFAULT_PLATFORM_FEE.fixedUsdMinor;
  const quote =
    target.kind === "fixed"
      ? quoteInSettlement({
          priceCurrency: pricing,
          priceMinor: request.priceMinor,
          symbol: target.symbol,
          network: target.network,
          prices,
          subtractPercent: request.subtract,
          feeFixedUsdMinor,
          now,
          expiresAt,
        })
      : null;
  const priceUsdMinor = quote?.priceUsdMinor ?? quoteInSettlementUsd(request.priceMinor, pricing.decimals, prices.get(pricing.symbol)!);
  const minimum = target.kind === "fixed" ? networkMinimumUsdMinor(target.network) : smallestMinimumUsdMinor(settleableNetworks(request.isServed));
  if (minimum === null) throw new AppError("payment.unsupported_network", "No network is available on this service.");
  if (priceUsdMinor < minimum) throw new AppError("payment.below_minimum");
  return {
    target,
    addressNetwork: target.kind === "fixed" ? (target.network as NetworkId) : null,
    columns: {
      status: target.kind === "fixed" ? "check" : "select",
      priceCurrency: pricing.symbol,
      priceAmountMinor: request.priceMinor.toString(),
      payerCurrency: target.kind === "fixed" ? target.symbol : null,
      network: target.kind === "fixed" ? target.network : null,
      rate: quote?.rate ?? null,
      rateSource: quote ? deps.rates.name : null,
      rateExpiresAt: quote?.rateExpiresAt ?? null,
      payerAmountMinor: quote?.payerAmountMinor.toString() ?? null,
      feePercentBps: merchant.feePercentBps ?? DEFAULT_PLATFORM_FEE.percentBps,
      feeFixedUsdMinor: feeFixedUsdMinor.toString(),
      feeFixedAssetMinor: quote?.feeFixedAssetMinor.toString() ?? null,
      accuracyBps: request.accuracyBps ?? merchant.accuracyBps,
      subtractPercent: request.subtract,
      isPaymentMultiple: input.is_payment_multiple ?? true,
      lifetimeSeconds,
      expiresAt,
      requiredConfirmations: quote?.requiredConfirmations ?? 0,
      priceUsdMinor: quote ? quote.priceUsdMinor.toString() : null,
      urlCallback: request.urlCallback ?? null,
      urlReturn: input.url_return ?? null,
      urlSuccess: input.url_success ?? null,
      additionalData: input.additional_data ?? null,
      payerEmail: input.payer_email ?? null,
      theme: input.theme ?? null,
      createdAt: now,
      updatedAt: now,
    },
  };
}

async function prepareInvoice(deps: InvoiceDeps, args: CreateInvoiceArgs): Promise<InvoicePlan> {
  const { merchantId, input } = args;
  const request = await validateCreateRequest(deps, input);
  const now = deps.now();

  const symbols = pricedSymbols(request);
  let hasRevivalCandidate = false;
  if (input.is_refresh && input.order_id !== undefined) {
    // A revived invoice is re-quoted on its own terms: have those prices ready before the lock.
    const candidate = await deps.db.invoice.findFirst({ where: revivableWhere(merchantId, input.order_id), orderBy: { createdAt: "desc" } });
    if (candidate) symbols.push(...requoteSymbols(candidate));
    hasRevivalCandidate = candidate !== null;
  }
  const [prices, merchant] = await Promise.all([
    // spec: POST /v1/payment — without a quote the invoice is not created (invoice.fee_quote_failed).
    fetchPricesOrThrow(deps.rates, symbols, "invoice.fee_quote_failed"),
    args.merchantTerms ?? readMerchantInvoiceTerms(deps.db, merchantId),
  ]);
  const terms = quoteNewInvoice(deps, input, request, merchant, prices, now);
  const { target } = terms;

  // The deposit address is allocated before the transaction (see allocateDepositAddress); a
  // request that will certainly not create an invoice does not consume an index.
  const existing = args.invoiceId
    ? await deps.db.invoice.findUnique({ where: { id: args.invoiceId } })
    : input.order_id !== undefined
      ? await deps.db.invoice.findFirst({ where: { merchantId, orderId: input.order_id, isFinal: false, expiresAt: { gt: now } }, orderBy: { createdAt: "desc" } })
      : null;
  if (existing) return { found: existing };
  // Only a network served by a real node has a watch cursor to set up before its first address.
  if (target.kind === "fixed" && deps.config.rpcEndpoints[target.network]) await ensureWatchCursor(deps, target.network, now);
  const keys = terms.addressNetwork ? await loadKeyMaterial(deps.db, deps.secretBox) : null;
  const addressChain = terms.addressNetwork ? addressChainOf(deps.config, terms.addressNetwork) : "main";
  const preallocated = terms.addressNetwork && !hasRevivalCandidate ? await takeDepositAddress(deps.db, keys!, terms.addressNetwork, addressChain) : null;
  const plan: NewInvoicePlan = { args, terms, prices, now, keys, addressChain, preallocated, lockFreeRow: null };
  // Nothing to serialise against: the invoice, address included, is one INSERT.
  if (input.order_id === undefined && !args.invoiceId) plan.lockFreeRow = newRow(plan, randomUUID(), null, preallocated);
  return plan;
}

function newRow({ args, terms }: NewInvoicePlan, id: string, orderId: string | null, allocated: AllocatedAddress | null): NewInvoiceRow {
  return {
    ...terms.columns,
    id,
    merchantId: args.merchantId,
    paymentLinkId: args.paymentLinkId ?? null,
    orderId,
    address: allocated?.address ?? null,
    addressIndex: allocated?.index ?? null,
  };
}

async function executeInvoice(tx: Tx, _deps: unknown, plan: InvoicePlan): Promise<Invoice> {
  if ("found" in plan) return plan.found;
  if (plan.lockFreeRow) return insertInvoice(tx, plan.lockFreeRow);
  const { args, terms, now, prices, keys, addressChain, preallocated } = plan;
  const { merchantId, input } = args;
  if (args.invoiceId) {
    // A caller that names the id (a batch element) may be repeating itself after a crash.
    const existing = await tx.invoice.findUnique({ where: { id: args.invoiceId } });
    if (existing) return existing;
  }
  const orderId = input.order_id;
  if (orderId !== undefined) {
    // spec: POST /v1/payment rule 2 — check-and-create for (merchant, order_id) is serialised
    // by the order's slot row: created once, then locked by every create of that order.
    await tx.$executeRaw`INSERT INTO invoice_order_slots (merchant_id, order_id) VALUES (${merchantId}::uuid, ${orderId}) ON CONFLICT DO NOTHING`;
    await tx.$queryRaw`SELECT invoice_id FROM invoice_order_slots WHERE merchant_id = ${merchantId}::uuid AND order_id = ${orderId} FOR UPDATE`;
    const live = await tx.invoice.findFirst({ where: { merchantId, orderId, isFinal: false, expiresAt: { gt: now } }, orderBy: { createdAt: "desc" } });
    if (live) return live;
    if (input.is_refresh) {
      const { expiresAt, lifetimeSeconds } = terms.columns;
      const revived = await reviveExpiredInvoice(tx, merchantId, orderId, { now, expiresAt, lifetimeSeconds, prices });
      if (revived) return revived;
    }
  }
  const id = args.invoiceId ?? randomUUID();
  const allocated = terms.addressNetwork ? (preallocated ?? (await allocateDepositAddress(tx, keys!, terms.addressNetwork, addressChain))) : null;
  if (orderId !== undefined) await tx.invoiceOrderSlot.update({ where: { merchantId_orderId: { merchantId, orderId } }, data: { invoiceId: id } });
  return insertInvoice(tx, newRow(plan, id, orderId ?? null, allocated));
}

/**
 * spec: POST /v1/payment. Creates an invoice — or answers the live invoice of the same order_id,
 * or revives an expired one with is_refresh — under a per-(merchant, order_id) lock, so
 * concurrent identical requests make one invoice. Checks, prices and the deposit address come
 * before the transaction.
 */
export const createInvoice = { prepare: prepareInvoice, execute: executeInvoice } satisfies UnitOfWork<CreateInvoiceArgs, InvoicePlan, Invoice>;

/**
 * The row of a plan whose invoice needs no lock and is not yet answered: its runner may insert it
 * with other requests' in one statement instead of executing the plan alone.
 */
export function lockFreeRowOf(plan: InvoicePlan): NewInvoiceRow | null {
  return "found" in plan ? null : plan.lockFreeRow;
}

/** The invoice a plan is already answered by, without a transaction; null when one is to be written. */
export function foundInvoiceOf(plan: InvoicePlan): Invoice | null {
  return "found" in plan ? plan.found : null;
}

function quoteInSettlementUsd(priceMinor: bigint, decimals: number, usdPrice: { numerator: bigint; denominator: bigint }): bigint {
  // price × usdPrice, in cents, rounded down (a minimum is cleared only by the full amount)
  return (priceMinor * usdPrice.numerator * 100n) / (usdPrice.denominator * 10n ** BigInt(decimals));
}

/** An expired invoice of this order that received nothing: the one is_refresh brings back. */
function revivableWhere(merchantId: string, orderId: string) {
  return { merchantId, orderId, status: "cancel", amountPaidMinor: 0, transfers: { none: {} } };
}

/**
 * spec: POST /v1/payment, is_refresh — an expired invoice with this order_id comes back to
 * life with a new rate and term, keeping its price, coin and address.
 */
async function reviveExpiredInvoice(
  tx: Tx,
  merchantId: string,
  orderId: string,
  terms: { now: Date; expiresAt: Date; lifetimeSeconds: number; prices: Map<string, Ratio> },
): Promise<Invoice | null> {
  const candidate = await tx.invoice.findFirst({ where: revivableWhere(merchantId, orderId), orderBy: { createdAt: "desc" }, select: { id: true } });
  if (!candidate) return null;
  // Under the invoice's row lock (which every evaluator takes), and still revivable: a payment
  // that arrived meanwhile keeps it as it is.
  await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${candidate.id}::uuid FOR UPDATE`;
  const expired = await tx.invoice.findFirst({ where: { id: candidate.id, ...revivableWhere(merchantId, orderId) } });
  if (!expired) return null;
  const quote = expired.payerCurrency ? requoteStoredInvoice(expired, terms.prices, terms.now, terms.expiresAt) : null;
  return tx.invoice.update({
    where: { id: expired.id },
    data: {
      status: quote ? "check" : "select",
      isFinal: false,
      expiresAt: terms.expiresAt,
      lifetimeSeconds: terms.lifetimeSeconds,
      ...(quote
        ? {
            rate: quote.rate,
            rateExpiresAt: quote.rateExpiresAt,
            payerAmountMinor: quote.payerAmountMinor.toString(),
            feeFixedAssetMinor: quote.feeFixedAssetMinor.toString(),
            requiredConfirmations: quote.requiredConfirmations,
            priceUsdMinor: quote.priceUsdMinor.toString(),
          }
        : {}),
      updatedAt: terms.now,
    },
  });
}
