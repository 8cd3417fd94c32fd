import type { Metadata } from "next";
import { I18nProvider } from "@/components/i18n/i18n-provider";
import { RouterRefreshProvider } from "@/components/i18n/router-refresh-provider";
import { getRequestLocale } from "@/lib/i18n/request-locale";
import { CATALOGUES } from "@/lib/i18n/translator";

// Payment pages are personal: keep them out of search engines, and do not hand their URL (which
// is the invoice id) to the store or anyone else the buyer follows a link to.
export const metadata: Metadata = {
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

/** The public pages speak the buyer's language: only that language's catalogue goes to the browser. */
export default async function HostedLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const locale = await getRequestLocale();
  return (
    <I18nProvider locale={locale} messages={CATALOGUES[locale]}>
      <RouterRefreshProvider>{children}</RouterRefreshProvider>
    </I18nProvider>
  );
}
