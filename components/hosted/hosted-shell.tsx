"use client";

import { useSyncExternalStore, type ReactNode } from "react";
import { LanguageSwitcher } from "@/components/i18n/language-switcher";
import { themeClassName, type ThemeName } from "@/components/ui/theme";

const DARK_QUERY = "(prefers-color-scheme: dark)";

function subscribeToColorScheme(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** The visitor's light or dark preference; light while rendering on the server. */
function useSystemTheme(): ThemeName {
  return useSyncExternalStore(
    subscribeToColorScheme,
    () => (window.matchMedia(DARK_QUERY).matches ? "dark" : "light"),
    () => "light",
  );
}

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
