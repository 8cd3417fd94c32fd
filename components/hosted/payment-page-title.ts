import { formatDecimal } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Translate } from "@/lib/i18n/translate";
import type { HostedPaymentPageData } from "@/lib/services/hosted/page-data";

/** The payment page's title (before the site's " · Gateway"): the price, or that there is no such invoice. */
export function describePaymentPageTitle(locale: Locale, t: Translate, data: HostedPaymentPageData | null): string {
  if (!data) return t("payment.notFoundTitle");
  return t("payment.title", { price: `${formatDecimal(locale, data.payment.amount)} ${data.payment.currency}` });
}
