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
import { findMessage, interpolate, isPluralMessage, type MessageKey, type MessageParams, type MessageTree, type Translation } from "@/lib/i18n/message-tree";

export type { Messages };
export type PageMessageKey = MessageKey<Messages>;

/** One catalogue per language, each typed against the English one so no key can be missing. */
export const CATALOGUES: Record<Locale, Translation<Messages>> = { en, es, pt, fr, de, ru, uk, pl, tr, zh, ja };

export type Translate = (key: PageMessageKey, params?: MessageParams) => string;

/**
 * The `t` of a language: the message at `key` with its placeholders filled; a plural message
 * picks its form for `params.count` by the language's rules. A key a catalogue lacks falls back
 * to English (the type check and the catalogue test keep that from happening).
 */
export function createTranslator(locale: Locale, messages: MessageTree = CATALOGUES[locale] as MessageTree): Translate {
  const rules = new Intl.PluralRules(locale);
  return (key, params = {}) => {
    const message = findMessage(messages, key) ?? findMessage(en as MessageTree, key);
    if (message === undefined) return key;
    if (!isPluralMessage(message)) return interpolate(message, params);
    const count = Number(params.count ?? 0);
    const form = message[rules.select(count) as Exclude<keyof typeof message, "__plural">] ?? message.other;
    return interpolate(form, params);
  };
}
