"use client";

import { useSyncExternalStore } from "react";
import type { ThemeName } from "./theme";

const DARK_QUERY = "(prefers-color-scheme: dark)";

function subscribeToColorScheme(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** The visitor's light or dark preference; light while rendering on the server. */
export function useSystemTheme(): ThemeName {
  return useSyncExternalStore(
    subscribeToColorScheme,
    () => (window.matchMedia(DARK_QUERY).matches ? "dark" : "light"),
    () => "light",
  );
}
