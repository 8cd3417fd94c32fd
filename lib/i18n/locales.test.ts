import { describe, expect, it } from "vitest";
import { formatDecimal, formatDuration, toPlainDecimal } from "@/lib/i18n/format";
import { negotiateLocale, resolveLocale } from "@/lib/i18n/locales";

describe("negotiateLocale", () => {
  it.each([
    ["es", "es"],
    ["es-ES,es;q=0.9,en;q=0.8", "es"],
    ["pt-BR", "pt"],
    ["zh-CN,zh;q=0.9", "zh"],
    ["nl-NL,nl;q=0.9,de;q=0.7,en;q=0.5", "de"],
    ["en;q=0.2, ja;q=0.9", "ja"],
    ["fr;q=0, uk", "uk"],
    ["*", null],
    ["nl, sv", null],
    ["", null],
    ["de;q=abc, ru", "ru"],
  ])("%j → %j", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });

  it("lets the remembered choice win over the browser's, and ignores an unknown one", () => {
    expect(resolveLocale("ja", "es")).toBe("ja");
    expect(resolveLocale("xx", "es")).toBe("es");
    expect(resolveLocale(undefined, undefined)).toBe("en");
  });
});

describe("formatDecimal", () => {
  it.each([
    ["en", "1234567.891000", "1,234,567.891000"],
    ["de", "1234567.891000", "1.234.567,891000"],
    ["es", "1234.50", "1234,50"],
    ["es", "12345.50", "12.345,50"],
    ["fr", "1234.5", "1\u202f234,5"],
    ["ja", "0.000000000000000001", "0.000000000000000001"],
    ["ru", "25", "25"],
    ["en", "123456789012345678901234.5", "123,456,789,012,345,678,901,234.5"],
  ] as const)("%s %s → %s, every digit kept", (locale, amount, expected) => {
    expect(formatDecimal(locale, amount)).toBe(expected);
  });

  it("returns anything but a plain decimal as it is", () => {
    expect(formatDecimal("de", "")).toBe("");
    expect(formatDecimal("de", "1e5")).toBe("1e5");
  });
});

describe("toPlainDecimal", () => {
  it.each([
    ["de", "1.234,5", "1234.5"],
    ["de", "12,50", "12.50"],
    ["fr", "1 234,5", "1234.5"],
    ["en", "1,234.5", "1234.5"],
    ["en", " 25 ", "25"],
    ["en", "12,5", "12,5"],
    ["de", "12.5", "12.5"],
  ] as const)("%s %j → %j", (locale, typed, expected) => {
    expect(toPlainDecimal(locale, typed)).toBe(expected);
  });
});

describe("formatDuration", () => {
  it("counts minutes and seconds, hours from one hour up", () => {
    expect(formatDuration(65)).toBe("01:05");
    expect(formatDuration(3600 * 27 + 1)).toBe("27:00:01");
    expect(formatDuration(-3)).toBe("00:00");
  });
});
