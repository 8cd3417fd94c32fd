import type { Metadata, Viewport } from "next";
import { DOCUMENT_BODY_CLASS } from "@/components/ui/theme";
import { getRequestLocale } from "@/lib/i18n/request-locale";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Gateway", template: "%s · Gateway" },
  description: "Self-hosted cryptocurrency payments",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  // The document's language is the one the public pages render in (screen readers pronounce by it).
  const locale = await getRequestLocale();
  return (
    <html lang={locale}>
      <body className={DOCUMENT_BODY_CLASS}>{children}</body>
    </html>
  );
}
