import { cookies } from "next/headers";
import { CABINET_THEME_COOKIE, toThemePreference, type ThemePreference } from "./theme-preference";

/** The theme the user chose for the cabinet (server side, so the first paint is right). */
export async function readThemePreference(): Promise<ThemePreference> {
  return toThemePreference((await cookies()).get(CABINET_THEME_COOKIE)?.value);
}
