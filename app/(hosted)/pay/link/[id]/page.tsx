import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CheckoutPage } from "@/components/hosted/checkout-page";
import type { HostedCheckoutPageData } from "@/lib/services/hosted/page-data";
import { getApiDeps } from "@/lib/api/deps";
import { findPricingCurrency } from "@/lib/catalogue";
import { isAppError } from "@/lib/errors";
import { getRequestLocale } from "@/lib/i18n/request-locale";
import { createTranslator } from "@/lib/i18n/translator";
import { describeHostedNetworks } from "@/lib/services/hosted/hosted-networks";
import { readStoreName } from "@/lib/services/hosted/store-name";
import { listSelectableMethods } from "@/lib/services/invoices/hosted-invoice";
import { openPublicLink } from "@/lib/services/payment-links/payment-links";
import { toPublicLinkCard } from "@/lib/api/serialize/payment-link";

export const dynamic = "force-dynamic";

/** The link's public card and what the buyer may choose, or null for a link that is not open. */
const loadCheckoutData = cache(async (id: string): Promise<HostedCheckoutPageData | null> => {
  const deps = getApiDeps();
  let link;
  try {
    link = await openPublicLink(deps, id);
  } catch (error) {
    // Unknown, disabled, expired, a malformed id or links switched off: all the same to a buyer.
    if (isAppError(error) && ["paylink.not_found", "paylink.bad_id", "paylink.disabled"].includes(error.code)) return null;
    throw error;
  }
  const card = toPublicLinkCard(link);
  const selectable = await listSelectableMethods(deps, link.merchantId);
  const methods = selectable
    .filter((method) => (link.pinnedCurrency === null || method.currency === link.pinnedCurrency) && (link.pinnedNetwork === null || method.network === link.pinnedNetwork))
    .map((method) => ({ currency: method.currency, network: method.network, kind: method.kind }));
  return { card, storeName: await readStoreName(deps, link.merchantId), priceDecimals: findPricingCurrency(link.currency)?.decimals ?? 2, methods, networks: describeHostedNetworks(deps.config).networks };
});

type PageProps = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const { id } = await params;
  const [data, locale] = await Promise.all([loadCheckoutData(id), getRequestLocale()]);
  const t = createTranslator(locale);
  return { title: data ? data.card.title : t("checkout.notFoundTitle") };
}

export default async function PaymentLinkCheckoutPage({ params }: PageProps) {
  const { id } = await params;
  const data = await loadCheckoutData(id);
  if (!data) notFound();
  return <CheckoutPage data={data} />;
}
