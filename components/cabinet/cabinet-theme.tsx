"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import { themeClassName } from "@/components/ui/theme";
import { useSystemTheme } from "@/components/ui/use-system-theme";
import { CABINET_THEME_COOKIE, type ThemePreference } from "@/lib/cabinet/theme-preference";

const ThemeContext = createContext<{ preference: ThemePreference; choose(preference: ThemePreference): void }>({
  preference: "system",
  choose: () => undefined,
});

export function useThemePreference() {
  return useContext(ThemeContext);
}

/**
 * The cabinet's colours: the user's choice (kept in a cookie so the server renders it), or the
 * device's preference for "system".
 */
export function CabinetTheme({ initial, children }: { initial: ThemePreference; children: ReactNode }) {
  const [preference, setPreference] = useState(initial);
  const systemTheme = useSystemTheme();
  const resolved = preference === "system" ? systemTheme : preference;
  const choose = (next: ThemePreference) => {
    setPreference(next);
    document.cookie = `${CABINET_THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
  };
  return (
    <ThemeContext.Provider value={{ preference, choose }}>
      <div lang="en" data-theme={resolved} className={`${themeClassName(resolved)} min-h-dvh bg-(--ui-page) text-(--ui-fg)`}>
        {children}
      </div>
    </ThemeContext.Provider>
  );
}

export function ThemeSwitcher() {
  const { preference, choose } = useThemePreference();
  return (
    <label className="flex items-center gap-2 text-sm text-(--ui-muted)">
      <span>Theme</span>
      <select
        value={preference}
        onChange={(event) => choose(event.target.value as ThemePreference)}
        className="min-h-9 rounded-md border border-(--ui-border-strong) bg-(--ui-surface) px-2 text-(--ui-fg)"
      >
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
