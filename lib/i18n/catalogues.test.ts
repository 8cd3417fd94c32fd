import { describe, expect, it } from "vitest";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { isPluralMessage, placeholdersOf, type MessageTree, type PluralCategory, type PluralMessage } from "@/lib/i18n/message-tree";
import { en } from "@/lib/i18n/messages/en";
import { CATALOGUES, createTranslator } from "@/lib/i18n/translator";

/** Every leaf of a catalogue by its dotted path. */
function leavesOf(tree: MessageTree, prefix = ""): Map<string, string | PluralMessage> {
  const leaves = new Map<string, string | PluralMessage>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string" || isPluralMessage(value)) leaves.set(path, value);
    else for (const [inner, leaf] of leavesOf(value, path)) leaves.set(inner, leaf);
  }
  return leaves;
}

/** The forms of a message: the string, or each plural form. */
function formsOf(message: string | PluralMessage): string[] {
  if (typeof message === "string") return [message];
  return Object.entries(message)
    .filter(([category]) => category !== "__plural")
    .map(([, form]) => form as string);
}

/** The plural categories a language uses for the counts a page shows (0 to 1000). */
function categoriesUsed(locale: Locale): Set<PluralCategory> {
  const rules = new Intl.PluralRules(locale);
  const categories = new Set<PluralCategory>();
  for (let count = 0; count <= 1000; count++) categories.add(rules.select(count) as PluralCategory);
  return categories;
}

const english = leavesOf(en as MessageTree);

describe("message catalogues", () => {
  it("cover eleven languages", () => {
    expect(LOCALES).toHaveLength(11);
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LOCALES].sort());
  });

  describe.each(LOCALES.filter((locale) => locale !== "en"))("%s", (locale) => {
    const leaves = leavesOf(CATALOGUES[locale] as MessageTree);

    it("has every English key and no other", () => {
      expect([...leaves.keys()].sort()).toEqual([...english.keys()].sort());
    });

    it("fills every message with the same placeholders as English, nothing left empty", () => {
      for (const [key, reference] of english) {
        const translated = leaves.get(key);
        expect(translated, key).toBeDefined();
        expect(isPluralMessage(translated), `${key}: plural in English, so plural here`).toBe(isPluralMessage(reference));
        const expected = placeholdersOf(formsOf(reference).join(" "));
        for (const form of formsOf(translated!)) {
          expect(form.trim(), key).not.toBe("");
          // A plural form may leave {count} implicit ("одна"), never any other placeholder.
          expect(placeholdersOf(form).filter((name) => !expected.includes(name)), `${key}: unknown placeholder in "${form}"`).toEqual([]);
          expect(expected.filter((name) => name !== "count" && !placeholdersOf(form).includes(name)), `${key}: missing placeholder in "${form}"`).toEqual([]);
        }
      }
    });

    it("gives every plural message the forms the language's plural rules ask for", () => {
      const needed = categoriesUsed(locale);
      for (const [key, message] of leaves) {
        if (!isPluralMessage(message)) continue;
        for (const category of needed) expect(message[category], `${key} lacks "${category}"`).toBeTruthy();
      }
    });

    it("is not English left untranslated", () => {
      const same = [...english].filter(([key, reference]) => typeof reference === "string" && reference.length > 12 && leaves.get(key) === reference).map(([key]) => key);
      expect(same).toEqual([]);
    });
  });
});

describe("createTranslator", () => {
  it("fills placeholders and picks the plural form by the language's rules", () => {
    expect(createTranslator("en")("payment.title", { price: "25.00 USD" })).toBe("Pay 25.00 USD");
    expect(createTranslator("en")("payment.confirmationsValue", { count: 1, required: 1 })).toBe("1 of 1 confirmation");
    expect(createTranslator("en")("payment.confirmationsValue", { count: 2, required: 3 })).toBe("2 of 3 confirmations");
    const russian = createTranslator("ru");
    const forms = new Set([1, 2, 5].map((count) => russian("checkout.amountTooPrecise", { count })));
    expect(forms.size).toBe(3);
  });

  it("keeps an unknown placeholder visible", () => {
    expect(createTranslator("en")("payment.title")).toBe("Pay {price}");
  });
});
