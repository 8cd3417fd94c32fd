"use client";

import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/i18n/language-switcher";
import { themeClassName, type ThemeName } from "@/components/ui/theme";
import { useSystemTheme } from "@/components/ui/use-system-theme";

/**
 * The frame of every public page (payment, checkout, claim): the theme, one narrow column that
 * fits a phone and centres on a desktop, and the store's name beside the language switcher above
 * the content. `system` follows the visitor's device (every page the merchant chose no theme for).
 */
export function HostedShell({ theme, storeName, children }: { theme: ThemeName | "system"; storeName?: string; children: ReactNode }) {
  const systemTheme = useSystemTheme();
  const resolved = theme === "system" ? systemTheme : theme;
  return (
    <div className={`${themeClassName(resolved)} min-h-dvh bg-(--ui-page) text-(--ui-fg)`} data-theme={resolved}>
      <main className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 pt-3 pb-10 sm:pt-8">
        <div className="-mb-2 flex min-h-11 items-center justify-between gap-3">
          {/* Who the buyer deals with, before anything is asked of them. */}
          {storeName ? (
            <p data-testid="store-name" className="min-w-0 text-base font-semibold wrap-anywhere">
              {storeName}
            </p>
          ) : (
            <span />
          )}
          <LanguageSwitcher />
        </div>
        {children}
      </main>
    </div>
  );
}
