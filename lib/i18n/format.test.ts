import { describe, expect, it } from "vitest";
import { formatDateTime, withFiatDecimals } from "./format";

describe("formatDateTime", () => {
  const iso = "2026-03-04T05:06:07Z";

  it("names the zone when one is given (the server renders in UTC before the browser takes over)", () => {
    expect(formatDateTime("en", iso, "UTC")).toBe("Mar 4, 2026, 5:06 AM UTC");
    expect(formatDateTime("de", iso, "UTC")).toBe("4. März 2026, 05:06 UTC");
  });

  it("gives back what it cannot read", () => {
    expect(formatDateTime("en", "not a date")).toBe("not a date");
  });
});

describe("withFiatDecimals", () => {
  it("writes a fiat price with its currency's decimals, and leaves crypto and odd text as given", () => {
    expect(withFiatDecimals("349.9", "EUR")).toBe("349.90");
    expect(withFiatDecimals("120", "USD")).toBe("120.00");
    expect(withFiatDecimals("1500", "JPY")).toBe("1500");
    expect(withFiatDecimals("12.345", "USD")).toBe("12.345");
    expect(withFiatDecimals("0.5", "USDT")).toBe("0.5");
    expect(withFiatDecimals("-3.1", "EUR")).toBe("-3.10");
    expect(withFiatDecimals("n/a", "EUR")).toBe("n/a");
  });
});
