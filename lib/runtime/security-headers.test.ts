import { describe, expect, it } from "vitest";
import { HOSTED_PAGE_HEADERS } from "./serve-hosted-page";

// The security headers are written once (lib/runtime/security-headers.mjs): every page Next.js
// serves (next.config.mjs) and the payment page's fast path send the same set, the fast path with
// its own script policy.

interface HeaderRule {
  source: string;
  headers: { key: string; value: string }[];
}

/** What next.config.mjs's headers() gives every path, by lower-case name. */
async function nextConfigHeaders(): Promise<Record<string, string>> {
  // A path in a variable: the config is plain JavaScript, loaded as Next.js loads it.
  const file = "../../next.config.mjs";
  const config = (await import(file)).default as { headers(): Promise<HeaderRule[]> };
  const rules = await config.headers();
  expect(rules.map((rule) => rule.source)).toEqual(["/:path*"]);
  return Object.fromEntries(rules[0].headers.map(({ key, value }) => [key.toLowerCase(), value]));
}

describe("security headers", () => {
  it("are the same set, with the same values, for Next.js's pages and the payment page's fast path", async () => {
    const fromNext = await nextConfigHeaders();
    expect(fromNext).toEqual({
      "content-security-policy": "frame-ancestors 'none'; object-src 'none'; base-uri 'self'",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "cross-origin-opener-policy": "same-origin",
      "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
    });
    const fastPath = Object.fromEntries(Object.entries(HOSTED_PAGE_HEADERS).map(([name, value]) => [name.toLowerCase(), value]));
    const { "content-security-policy": pageCsp, ...rest } = fromNext;
    for (const [name, value] of Object.entries(rest)) expect([name, fastPath[name]]).toEqual([name, value]);
    // Only the script policy differs: the fast path's page runs its own file and nothing else.
    expect(fastPath["content-security-policy"]).toBe("script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
    for (const directive of ["frame-ancestors 'none'", "object-src 'none'"]) {
      expect(pageCsp).toContain(directive);
      expect(fastPath["content-security-policy"]).toContain(directive);
    }
  });
});
