import type { Locale } from "@/lib/i18n/locales";
import { findMessage, interpolate, isPluralMessage, type MessageKey, type MessageParams, type MessageTree } from "@/lib/i18n/message-tree";
import type { Messages } from "@/lib/i18n/messages/en";

export type PageMessageKey = MessageKey<Messages>;

export type Translate = (key: PageMessageKey, params?: MessageParams) => string;

/**
 * The `t` of a language over one catalogue: the message at `key` with its placeholders filled; a
 * plural message picks its form for `params.count` by the language's rules. A key the catalogue
 * lacks comes from `fallback` when given, else stays the key. Browser code imports this module,
 * not the translator, so a page carries its own language's catalogue only.
 */
export function translateWith(locale: Locale, messages: MessageTree, fallback?: MessageTree): Translate {
  const rules = new Intl.PluralRules(locale);
  return (key, params = {}) => {
    const message = findMessage(messages, key) ?? (fallback ? findMessage(fallback, key) : undefined);
    if (message === undefined) return key;
    if (!isPluralMessage(message)) return interpolate(message, params);
    const count = Number(params.count ?? 0);
    const form = message[rules.select(count) as Exclude<keyof typeof message, "__plural">] ?? message.other;
    return interpolate(form, params);
  };
}
