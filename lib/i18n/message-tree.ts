/**
 * Message catalogues: nested objects whose leaves are strings with `{name}` placeholders, or the
 * plural forms of one message (CLDR categories; `other` is required and the fallback).
 */
export type PluralCategory = "zero" | "one" | "two" | "few" | "many" | "other";

export type PluralMessage = { readonly __plural: true } & Partial<Record<Exclude<PluralCategory, "other">, string>> & { readonly other: string };

export type MessageTree = { readonly [key: string]: string | PluralMessage | MessageTree };

/** The forms of a message that depends on `{count}`. */
export function plural(forms: Partial<Record<Exclude<PluralCategory, "other">, string>> & { other: string }): PluralMessage {
  return { __plural: true, ...forms };
}

export function isPluralMessage(value: unknown): value is PluralMessage {
  return typeof value === "object" && value !== null && (value as PluralMessage).__plural === true;
}

/** Every leaf's dotted path: "payment.status.paidHeadline". */
export type MessageKey<Tree> = {
  [Key in keyof Tree & string]: Tree[Key] extends string | PluralMessage ? Key : `${Key}.${MessageKey<Tree[Key]>}`;
}[keyof Tree & string];

/** A catalogue with the same keys as `Tree`, strings anywhere `Tree` has one (another language's). */
export type Translation<Tree> = {
  [Key in keyof Tree]: Tree[Key] extends PluralMessage ? PluralMessage : Tree[Key] extends string ? string : Translation<Tree[Key]>;
};

export type MessageParams = Record<string, string | number>;

/** The leaf at a dotted path, or undefined. */
export function findMessage(tree: MessageTree, key: string): string | PluralMessage | undefined {
  let node: MessageTree | string | PluralMessage | undefined = tree;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null || isPluralMessage(node)) return undefined;
    node = node[part];
  }
  return typeof node === "string" || isPluralMessage(node) ? node : undefined;
}

/** The `{name}` placeholders of a message, sorted. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]))].sort();
}

/** Fills `{name}` placeholders; an unknown one stays visible rather than vanishing. */
export function interpolate(text: string, params: MessageParams = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
