import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PaymentPage } from "@/components/hosted/payment-page";
import type { HostedPaymentPageData } from "@/components/hosted/types";
import type { Invoice } from "@/generated/prisma/client";
import { getApiDeps } from "@/lib/api/deps";
import { toPublicPayment } from "@/lib/api/serialize/payment";
import { findSettlementAsset } from "@/lib/catalogue";
import { isAppError } from "@/lib/errors";
import { formatDecimal } from "@/lib/i18n/format";
import { getRequestLocale } from "@/lib/i18n/request-locale";
import { createTranslator } from "@/lib/i18n/translator";
import { describeHostedNetworks } from "@/lib/services/hosted/hosted-networks";
import { getHostedInvoiceOrThrow, listSelectableMethods, openHostedInvoice } from "@/lib/services/invoices/hosted-invoice";

export const dynamic = "force-dynamic";

/** The invoice behind the page, or null for an id that names none. Once per request. */
const loadInvoice = cache(async (id: string): Promise<Invoice | null> => {
  const deps = getApiDeps();
  try {
    return await openHostedInvoice(deps, id);
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "pay.bad_uuid" || error.code === "pay.not_found") return null;
    // A failed re-quote (rate source down) leaves the stored quote in place for display.
    return getHostedInvoiceOrThrow(deps, id);
  }
});

/** The page's props: only the public projection of the invoice and public catalogue facts. */
const loadPageData = cache(async (id: string): Promise<HostedPaymentPageData | null> => {
  const invoice = await loadInvoice(id);
  if (!invoice) return null;
  const deps = getApiDeps();
  // spec: Payment — the hosted page gets the public form, never its own select of the row.
  const payment = await toPublicPayment(invoice, deps.config.publicBaseUrl);
  const selectable = payment.payment_status === "select" ? await listSelectableMethods(deps, invoice.merchantId) : [];
  const { networks, sandboxNetworks } = describeHostedNetworks(deps.config);
  const asset = payment.payer_currency && payment.network ? findSettlementAsset(payment.payer_currency, payment.network) : null;
  return {
    payment,
    methods: selectable.map((method) => ({ currency: method.currency, network: method.network, kind: method.kind })),
    assetKind: asset?.kind ?? null,
    networks,
    sandboxNetworks,
    renderedAtMs: deps.now().getTime(),
  };
});

type PageProps = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const { id } = await params;
  const [data, locale] = await Promise.all([loadPageData(id), getRequestLocale()]);
  const t = createTranslator(locale);
  // The page itself answers 404 for an unknown id; metadata only names it.
  if (!data) return { title: t("payment.notFoundTitle") };
  return { title: t("payment.title", { price: `${formatDecimal(locale, data.payment.amount)} ${data.payment.currency}` }) };
}

export default async function HostedPaymentPage({ params }: PageProps) {
  const { id } = await params;
  const data = await loadPageData(id);
  if (!data) notFound();
  return <PaymentPage data={data} />;
}
