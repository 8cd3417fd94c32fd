export type ThemePreference = "system" | "light" | "dark";

export const CABINET_THEME_COOKIE = "gateway_cabinet_theme";

export function toThemePreference(value: string | undefined): ThemePreference {
  return value === "light" || value === "dark" ? value : "system";
}
