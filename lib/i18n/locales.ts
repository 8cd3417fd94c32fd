/** The languages of the public pages, by BCP 47 primary language subtag. */
export const LOCALES = ["en", "es", "pt", "fr", "de", "ru", "uk", "pl", "tr", "zh", "ja"] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en";

/** Each language named in itself, as the switcher lists it. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  es: "Español",
  pt: "Português",
  fr: "Français",
  de: "Deutsch",
  ru: "Русский",
  uk: "Українська",
  pl: "Polski",
  tr: "Türkçe",
  zh: "中文",
  ja: "日本語",
};

/** The cookie that remembers the visitor's choice in the switcher (a year, every public page). */
export const LOCALE_COOKIE = "gateway_locale";
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The best supported language of an `Accept-Language` header (RFC 9110 §12.5.4): ranges by
 * descending weight, a region ignored ("pt-BR" is Portuguese), `q=0` excluded, ties in header order.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | null {
  if (!acceptLanguage) return null;
  const ranges = acceptLanguage
    .split(",")
    .slice(0, 50)
    .map((part, index) => {
      const [tag, ...parameters] = part.trim().split(";");
      const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith("q="));
      const weight = quality === undefined ? 1 : Number(quality.slice(2));
      return { language: tag.trim().toLowerCase().split("-")[0], weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((range) => range.weight > 0 && range.language !== "")
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranges.map((range) => range.language).find(isLocale) ?? null;
}

/** The page language: the remembered choice, else the browser's preference, else English. */
export function resolveLocale(cookieValue: string | undefined, acceptLanguage: string | null | undefined): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  return negotiateLocale(acceptLanguage) ?? DEFAULT_LOCALE;
}
