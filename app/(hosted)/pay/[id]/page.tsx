import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PaymentPage } from "@/components/hosted/payment-page";
import type { HostedNetworkInfo, HostedPaymentPageData } from "@/components/hosted/types";
import type { Invoice } from "@/generated/prisma/client";
import { getApiDeps } from "@/lib/api/deps";
import { toPublicPayment } from "@/lib/api/serialize/payment";
import { findSettlementAsset, listNetworks, type NetworkFamily, type NetworkId } from "@/lib/catalogue";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";
import { isAppError } from "@/lib/errors";
import { getHostedInvoiceOrThrow, listSelectableMethods, openHostedInvoice } from "@/lib/services/invoices/hosted-invoice";

export const dynamic = "force-dynamic";

/** The token standard buyers know a family's tokens by; BNB Smart Chain calls its ERC-20 tokens BEP-20. */
const TOKEN_STANDARD_BY_FAMILY: Record<NetworkFamily, string> = { evm: "ERC-20", tron: "TRC-20", solana: "SPL", ton: "Jetton", utxo: "" };
const TOKEN_STANDARD_BY_NETWORK: Partial<Record<NetworkId, string>> = { bsc: "BEP-20" };

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
  const selectable = payment.payment_status === "select" ? await listSelectableMethods(deps, invoice) : [];
  const networks: Record<string, HostedNetworkInfo> = {};
  const sandboxNetworks: string[] = [];
  for (const network of listNetworks()) {
    networks[network.id] = { name: network.displayName, tokenStandard: TOKEN_STANDARD_BY_NETWORK[network.id] ?? TOKEN_STANDARD_BY_FAMILY[network.family] };
    if (deps.config.sandbox && resolveNetworkStatus(network, deps.config).source === "sandbox") sandboxNetworks.push(network.id);
  }
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
  const data = await loadPageData(id);
  // The page itself answers 404 for an unknown id; metadata only names it.
  if (!data) return { title: "Invoice not found" };
  return { title: `Pay ${data.payment.amount} ${data.payment.currency}` };
}

export default async function HostedPaymentPage({ params }: PageProps) {
  const { id } = await params;
  const data = await loadPageData(id);
  if (!data) notFound();
  return <PaymentPage data={data} />;
}
