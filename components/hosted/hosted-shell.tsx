"use client";

import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/i18n/language-switcher";
import { themeClassName, type ThemeName } from "@/components/ui/theme";
import { useSystemTheme } from "@/components/ui/use-system-theme";

/**
 * The frame of every public page (payment, checkout, claim): the theme, one narrow column that
 * fits a phone and centres on a desktop, and the language switcher above the content. `system`
 * follows the visitor's device (pages without a merchant's choice: checkout, claim).
 */
export function HostedShell({ theme, children }: { theme: ThemeName | "system"; children: ReactNode }) {
  const systemTheme = useSystemTheme();
  const resolved = theme === "system" ? systemTheme : theme;
  return (
    <div className={`${themeClassName(resolved)} min-h-dvh bg-(--ui-page) text-(--ui-fg)`} data-theme={resolved}>
      <main className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 pt-3 pb-10 sm:pt-8">
        <div className="-mb-2 flex justify-end">
          <LanguageSwitcher />
        </div>
        {children}
      </main>
    </div>
  );
}
