import type { Invoice } from "@/generated/prisma/client";
import { findPricingCurrency, findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol, type NetworkId } from "@/lib/catalogue";
import { allocateDepositAddress } from "@/lib/chains/allocate-address";
import { ensureWatchCursor } from "@/lib/chains/ensure-watch-cursor";
import { addressChainOf } from "@/lib/chains/registry";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { networkAvailability } from "@/lib/chains/network-sources";
import { AppError, isAppError } from "@/lib/errors";
import type { InvoiceDeps } from "./create-invoice";
import { isUuid } from "@/lib/domain/input/uuid";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { fetchPricesOrThrow, networkMinimumUsdMinor, quoteInSettlement, requoteStoredInvoice, requoteSymbols } from "./pricing";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";

/** The invoice behind a hosted-page id: `pay.bad_uuid` / `pay.not_found`. */
export async function getHostedInvoiceOrThrow(deps: Pick<InvoiceDeps, "db">, id: string): Promise<Invoice> {
  if (!isUuid(id)) throw new AppError("pay.bad_uuid");
  const invoice = await deps.db.invoice.findUnique({ where: { id } });
  if (!invoice) throw new AppError("pay.not_found");
  return invoice;
}

/**
 * spec: POST /v1/payment rule 4 — when the hosted page is opened on an unpaid, unexpired
 * invoice whose rate lapsed, the rate is re-quoted. Address and amount never change once a
 * payment has started. A failed re-quote leaves the old quote in place for display only.
 */
export async function openHostedInvoice(deps: InvoiceDeps, id: string): Promise<Invoice> {
  const invoice = await getHostedInvoiceOrThrow(deps, id);
  const now = deps.now();
  const isQuoteStale = invoice.status === "check" && invoice.rateExpiresAt !== null && invoice.rateExpiresAt <= now && invoice.expiresAt > now;
  if (!isQuoteStale || !invoice.payerCurrency || !invoice.network) return invoice;
  let quote;
  try {
    quote = requoteStoredInvoice(invoice, await fetchPricesOrThrow(deps.rates, requoteSymbols(invoice), "invoice.quote_failed"), now, invoice.expiresAt);
  } catch (error) {
    // spec: GET /v1/pay/{id} answers only pay.* codes: with no new rate the page shows the last quote.
    if (isAppError(error)) return invoice;
    throw error;
  }
  // Conditional on nothing having happened meanwhile: a transfer or selection wins.
  const { count } = await deps.db.invoice.updateMany({
    where: { id, status: "check", updatedAt: invoice.updatedAt, transfers: { none: {} } },
    data: {
      rate: quote.rate,
      rateSource: deps.rates.name,
      rateExpiresAt: quote.rateExpiresAt,
      payerAmountMinor: quote.payerAmountMinor.toString(),
      feeFixedAssetMinor: quote.feeFixedAssetMinor.toString(),
      requiredConfirmations: quote.requiredConfirmations,
      priceUsdMinor: quote.priceUsdMinor.toString(),
      updatedAt: now,
    },
  });
  return count === 1 ? deps.db.invoice.findUniqueOrThrow({ where: { id } }) : getHostedInvoiceOrThrow(deps, id);
}

/** The merchant's accepted set; empty means the whole catalogue (spec: Accepted-currency entry). */
export async function isMethodAccepted(deps: Pick<InvoiceDeps, "db">, merchantId: string, currency: string, network: string): Promise<boolean> {
  const accepted = await deps.db.acceptedMethod.findMany({ where: { merchantId }, select: { currency: true, network: true } });
  return accepted.length === 0 || accepted.some((method) => method.currency === currency && method.network === network);
}

export interface MethodChoice {
  invoiceId: string;
  currency: string;
  network: string;
}

/** The method fixed before the transaction: the quote and the allocated address. */
interface MethodPlan {
  invoiceId: string;
  symbol: string;
  network: string;
  quote: ReturnType<typeof quoteInSettlement>;
  rateSource: string;
  address: { address: string; index: number };
}

/**
 * spec: POST /v1/pay/{id}/select — the buyer picks coin and network: the rate is fixed, the
 * address allocated (before the transaction: an unused address costs nothing), and the invoice
 * moves from `select` to `check`.
 */
export const selectPaymentMethod: UnitOfWork<MethodChoice, MethodPlan, Invoice> = {
  async prepare(deps, { invoiceId, currency, network: networkInput }) {
    const invoice = await getHostedInvoiceOrThrow(deps, invoiceId);
    const now = deps.now();
    if (invoice.status !== "select") throw new AppError("pay.not_selectable");
    if (invoice.expiresAt <= now) throw new AppError("invoice.expired");
    const symbol = normalizeSymbol(currency);
    const network = normalizeNetworkId(networkInput);
    if (!isSettlementSymbol(symbol)) throw new AppError("pay.unknown_currency");
    if (!findSettlementAsset(symbol, network) || !networkAvailability(deps.config)(network).deposit) throw new AppError("payment.unsupported_network");
    if (!(await isMethodAccepted(deps, invoice.merchantId, symbol, network))) throw new AppError("pay.method_not_accepted");
    const pricing = findPricingCurrency(invoice.priceCurrency)!;
    const prices = await fetchPricesOrThrow(deps.rates, [pricing.symbol, symbol], "invoice.quote_failed");
    const quote = quoteInSettlement({
      priceCurrency: pricing,
      priceMinor: toMinor(invoice.priceAmountMinor),
      symbol,
      network,
      prices,
      subtractPercent: invoice.subtractPercent,
      feeFixedUsdMinor: toMinor(invoice.feeFixedUsdMinor),
      now,
      expiresAt: invoice.expiresAt,
    });
    if (quote.priceUsdMinor < networkMinimumUsdMinor(network)) throw new AppError("pay.below_minimum");
    await ensureWatchCursor(deps, network, now);
    const address = await allocateDepositAddress(deps.db, await loadKeyMaterial(deps.db, deps.secretBox), network as NetworkId, addressChainOf(deps.config, network));
    return { invoiceId: invoice.id, symbol, network, quote, rateSource: deps.rates.name, address };
  },
  async execute(tx, deps, { invoiceId: id, symbol, network, quote, rateSource, address }) {
    await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${id}::uuid FOR UPDATE`;
    const current = await tx.invoice.findUniqueOrThrow({ where: { id } });
    // Re-checked under the row lock the expiry job also takes: a term that ended meanwhile wins.
    if (current.status !== "select") throw new AppError("pay.not_selectable");
    const now = deps.now();
    if (current.expiresAt <= now) throw new AppError("invoice.expired");
    return tx.invoice.update({
      where: { id },
      data: {
        status: "check",
        payerCurrency: symbol,
        network,
        address: address.address,
        addressIndex: address.index,
        rate: quote.rate,
        rateSource,
        rateExpiresAt: quote.rateExpiresAt,
        payerAmountMinor: quote.payerAmountMinor.toString(),
        feeFixedAssetMinor: quote.feeFixedAssetMinor.toString(),
        requiredConfirmations: quote.requiredConfirmations,
        priceUsdMinor: quote.priceUsdMinor.toString(),
        updatedAt: now,
      },
    });
  },
};

/** A coin and network the buyer may pick on the page. */
export interface SelectableMethod {
  currency: string;
  network: string;
  networkName: string;
  kind: "native" | "token";
}

/** The methods a merchant's buyer may pick (a currency-agnostic invoice, a payment link): accepted set ∩ catalogue ∩ served here. */
export async function listSelectableMethods(deps: Pick<InvoiceDeps, "db" | "config">, merchantId: string): Promise<SelectableMethod[]> {
  const { listSettlementAssets, findNetwork } = await import("@/lib/catalogue");
  const accepted = await deps.db.acceptedMethod.findMany({ where: { merchantId } });
  const isAccepted = (currency: string, network: string) => accepted.length === 0 || accepted.some((method) => method.currency === currency && method.network === network);
  const isServed = networkAvailability(deps.config);
  return listSettlementAssets()
    .filter((asset) => isAccepted(asset.symbol, asset.network) && isServed(asset.network).deposit)
    .map((asset) => ({ currency: asset.symbol, network: asset.network, networkName: findNetwork(asset.network)?.displayName ?? asset.network, kind: asset.kind }));
}
