import { walletTargetKey, type HostedPaymentPageData } from "@/lib/services/hosted/page-data";
import type { Invoice } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { toPublicPayment } from "@/lib/api/serialize/payment";
import { findSettlementAsset } from "@/lib/catalogue";
import { paymentUriTargetOf } from "@/lib/chains/payment-uri-target";
import { addressChainOf } from "@/lib/chains/registry";
import type { PaymentUriTarget } from "@/lib/domain/payment-uri/payment-uri";
import { isAppError } from "@/lib/errors";
import { getHostedInvoiceOrThrow, listSelectableMethods, openHostedInvoice } from "@/lib/services/invoices/hosted-invoice";
import { describeHostedNetworks } from "./hosted-networks";
import { readStoreName } from "./store-name";

/** The invoice behind the page (re-quoted when its quote ran out), or null for an id that names none. */
async function loadInvoice(deps: AppDeps, id: string): Promise<Invoice | null> {
  try {
    return await openHostedInvoice(deps, id);
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "pay.bad_uuid" || error.code === "pay.not_found") return null;
    // A failed re-quote (rate source down) leaves the stored quote in place for display.
    return getHostedInvoiceOrThrow(deps, id);
  }
}

/**
 * What the hosted payment page shows, or null for an id that names no invoice: only the public
 * projection of the invoice and public catalogue facts. The one loader of both ways the page is
 * served (Next's route and the server's own, lib/runtime/serve-hosted-page.ts).
 */
export async function loadHostedPaymentPageData(deps: AppDeps, id: string): Promise<HostedPaymentPageData | null> {
  const invoice = await loadInvoice(deps, id);
  if (!invoice) return null;
  // spec: Payment — the hosted page gets the public form, never its own select of the row.
  const payment = await toPublicPayment(invoice, deps.config.publicBaseUrl);
  const selectable = payment.payment_status === "select" ? await listSelectableMethods(deps, invoice.merchantId) : [];
  const { networks, sandboxNetworks } = describeHostedNetworks(deps.config);
  const asset = payment.payer_currency && payment.network ? findSettlementAsset(payment.payer_currency, payment.network) : null;
  const walletTargets: Record<string, PaymentUriTarget> = {};
  const pairs = payment.payer_currency && payment.network ? [{ currency: payment.payer_currency, network: payment.network }, ...selectable] : selectable;
  for (const { currency, network } of pairs) {
    const target = paymentUriTargetOf(currency, network, addressChainOf(deps.config, network));
    if (target) walletTargets[walletTargetKey(currency, network)] = target;
  }
  return {
    payment,
    storeName: await readStoreName(deps, invoice.merchantId),
    walletTargets,
    methods: selectable.map((method) => ({ currency: method.currency, network: method.network, kind: method.kind })),
    assetKind: asset?.kind ?? null,
    networks,
    sandboxNetworks,
    renderedAtMs: deps.now().getTime(),
  };
}
