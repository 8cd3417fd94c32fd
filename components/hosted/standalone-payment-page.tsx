"use client";

import { I18nProvider } from "@/components/i18n/i18n-provider";
import type { Locale } from "@/lib/i18n/locales";
import type { Translation } from "@/lib/i18n/message-tree";
import type { Messages } from "@/lib/i18n/messages/en";
import { LoadError, NotFoundState } from "./page-states";
import { PaymentPage } from "./payment-page";
import type { HostedPaymentPageData } from "@/lib/services/hosted/page-data";

/** What `/pay/<id>` shows: the invoice, that there is none, or that it could not be loaded. */
export type StandalonePaymentView = { kind: "payment"; data: HostedPaymentPageData } | { kind: "not_found" } | { kind: "load_error" };

/** Everything the page is rendered from: the server renders it to HTML and sends it as JSON for hydration. */
export interface StandalonePaymentProps {
  locale: Locale;
  /** Only the page's language: the browser never receives the other catalogues. */
  messages: Translation<Messages>;
  view: StandalonePaymentView;
}

/** Where the server puts the rendered page and its props in the document. */
export const STANDALONE_ROOT_ID = "gateway-page";
export const STANDALONE_PROPS_ID = "gateway-page-props";

/**
 * The hosted payment page as the server renders it outside Next's router: the same components as
 * app/(hosted)/pay/[id], hydrated by a script of its own (standalone-payment-page.entry.tsx).
 */
export function StandalonePaymentPage({ locale, messages, view }: StandalonePaymentProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      {view.kind === "payment" ? <PaymentPage data={view.data} /> : null}
      {view.kind === "not_found" ? <NotFoundState titleKey="payment.notFoundTitle" detailKey="payment.notFoundDetail" warningKey="payment.notFoundWarning" /> : null}
      {view.kind === "load_error" ? <LoadError titleKey="payment.loadErrorTitle" detailKey="payment.loadErrorDetail" reset={() => window.location.reload()} /> : null}
    </I18nProvider>
  );
}
