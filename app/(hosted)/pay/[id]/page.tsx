import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PaymentPage } from "@/components/hosted/payment-page";
import { describePaymentPageTitle } from "@/components/hosted/payment-page-title";
import { getApiDeps } from "@/lib/api/deps";
import { getRequestLocale } from "@/lib/i18n/request-locale";
import { createTranslator } from "@/lib/i18n/translator";
import { loadHostedPaymentPageData } from "@/lib/services/hosted/payment-page-data";

export const dynamic = "force-dynamic";

/**
 * The hosted payment page where Next serves it (`next start`, Vercel). `npm start` answers
 * `/pay/<id>` before Next's router with the same components and loader and a script of its own
 * (lib/runtime/serve-hosted-page.ts); this route is that page without the custom server.
 */
const loadPageData = cache((id: string) => loadHostedPaymentPageData(getApiDeps(), id));

type PageProps = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const { id } = await params;
  const [data, locale] = await Promise.all([loadPageData(id), getRequestLocale()]);
  // The page itself answers 404 for an unknown id; metadata only names it.
  return { title: describePaymentPageTitle(locale, createTranslator(locale), data) };
}

export default async function HostedPaymentPage({ params }: PageProps) {
  const { id } = await params;
  const data = await loadPageData(id);
  if (!data) notFound();
  return <PaymentPage data={data} />;
}
