import { describe, expect, it } from "vitest";
import { formatDateTime } from "./format";

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
