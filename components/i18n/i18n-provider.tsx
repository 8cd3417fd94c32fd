"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { formatDecimal } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { MessageTree, Translation } from "@/lib/i18n/message-tree";
import { translateWith, type Translate } from "@/lib/i18n/translate";
import type { Messages } from "@/lib/i18n/messages/en";

export interface I18n {
  locale: Locale;
  t: Translate;
  /** A decimal string from the API in the locale's notation, every digit kept. */
  amount(value: string): string;
}

const I18nContext = createContext<I18n | null>(null);

/**
 * The page's language for its client components. The server picks the locale and hands over only
 * that language's catalogue, so the page's HTML and its hydration use the same words.
 */
export function I18nProvider({ locale, messages, children }: { locale: Locale; messages: Translation<Messages>; children: ReactNode }) {
  const value = useMemo<I18n>(
    () => ({
      locale,
      t: translateWith(locale, messages as MessageTree),
      amount: (amount) => formatDecimal(locale, amount),
    }),
    [locale, messages],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useI18n outside an I18nProvider");
  return i18n;
}
