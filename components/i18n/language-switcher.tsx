"use client";

import { useId, useTransition } from "react";
import { FOCUS_RING } from "@/components/ui/theme";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS, LOCALE_NAMES, LOCALES, isLocale } from "@/lib/i18n/locales";
import { useI18n } from "./i18n-provider";
import { usePageRefresh } from "./page-refresh";

/**
 * The visible language choice of the public pages. The choice is remembered in a cookie, and the
 * server renders the page again in that language (the words come from the server's catalogue).
 */
export function LanguageSwitcher() {
  const { locale, t } = useI18n();
  const refresh = usePageRefresh();
  const [isPending, startTransition] = useTransition();
  const id = useId();

  function choose(next: string) {
    if (!isLocale(next) || next === locale) return;
    document.cookie = `${LOCALE_COOKIE}=${next}; path=/; max-age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; samesite=lax`;
    startTransition(refresh);
  }

  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-(--ui-muted)">
        <GlobeIcon />
        <span className="sr-only">{t("common.language")}</span>
      </label>
      <select
        id={id}
        value={locale}
        onChange={(event) => choose(event.target.value)}
        aria-busy={isPending}
        data-testid="language-switcher"
        className={`min-h-11 rounded-lg border border-(--ui-border-strong) bg-(--ui-surface) px-2 py-1 text-sm text-(--ui-fg) ${FOCUS_RING} focus-visible:ring-offset-(--ui-page)`}
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {LOCALE_NAMES[option]}
          </option>
        ))}
      </select>
    </div>
  );
}

function GlobeIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.5">
      <circle cx="10" cy="10" r="7.5" />
      <path d="M2.5 10h15M10 2.5c2 2.2 3 4.7 3 7.5s-1 5.3-3 7.5c-2-2.2-3-4.7-3-7.5s1-5.3 3-7.5Z" />
    </svg>
  );
}
