import { de } from "@/lib/i18n/messages/de";
import { en, type Messages } from "@/lib/i18n/messages/en";
import { es } from "@/lib/i18n/messages/es";
import { fr } from "@/lib/i18n/messages/fr";
import { ja } from "@/lib/i18n/messages/ja";
import { pl } from "@/lib/i18n/messages/pl";
import { pt } from "@/lib/i18n/messages/pt";
import { ru } from "@/lib/i18n/messages/ru";
import { tr } from "@/lib/i18n/messages/tr";
import { uk } from "@/lib/i18n/messages/uk";
import { zh } from "@/lib/i18n/messages/zh";
import type { Locale } from "@/lib/i18n/locales";
import type { MessageTree, Translation } from "@/lib/i18n/message-tree";
import { translateWith, type PageMessageKey, type Translate } from "@/lib/i18n/translate";

export type { Messages, PageMessageKey, Translate };

/** One catalogue per language, each typed against the English one so no key can be missing. */
export const CATALOGUES: Record<Locale, Translation<Messages>> = { en, es, pt, fr, de, ru, uk, pl, tr, zh, ja };

/** The `t` of a language; a key its catalogue lacks falls back to English (the type check and the catalogue test keep that from happening). */
export function createTranslator(locale: Locale, messages: MessageTree = CATALOGUES[locale] as MessageTree): Translate {
  return translateWith(locale, messages, en as MessageTree);
}
