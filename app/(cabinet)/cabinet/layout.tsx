import type { Metadata } from "next";
import { CabinetFrame } from "@/components/cabinet/cabinet-frame";
import { CabinetTheme } from "@/components/cabinet/cabinet-theme";
import { I18nProvider } from "@/components/i18n/i18n-provider";
import { CATALOGUES } from "@/lib/i18n/translator";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { readThemePreference } from "@/lib/cabinet/page-theme";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: { default: "Cabinet", template: "%s · Cabinet" }, robots: { index: false, follow: false }, referrer: "no-referrer" };

/** Every cabinet page needs a session that passed both steps; without one the visitor goes to sign in. */
export default async function CabinetLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const actor = await requireActorForPage();
  const [merchant, theme] = await Promise.all([
    getApiDeps().db.merchant.findUniqueOrThrow({ where: { id: actor.merchantId }, select: { name: true } }),
    readThemePreference(),
  ]);
  return (
    // The cabinet is in English; the provider gives its client components English dates and numbers.
    <I18nProvider locale="en" messages={CATALOGUES.en}>
      <CabinetTheme initial={theme}>
        <CabinetFrame storeName={merchant.name} email={actor.email} role={actor.role}>
          {children}
        </CabinetFrame>
      </CabinetTheme>
    </I18nProvider>
  );
}
