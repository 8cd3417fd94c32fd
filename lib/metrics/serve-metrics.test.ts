import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { isAuthorizedScrape, isLocalScrape } from "./serve-metrics";

describe("isAuthorizedScrape", () => {
  it.each([
    [undefined, undefined, true],
    ["Bearer anything", undefined, true],
    [undefined, "s3cret-token", false],
    ["", "s3cret-token", false],
    ["Bearer s3cret-token", "s3cret-token", true],
    ["bearer  s3cret-token ", "s3cret-token", true],
    ["Basic s3cret-token", "s3cret-token", false],
    ["Bearer s3cret", "s3cret-token", false],
    ["Bearer s3cret-token-and-more", "s3cret-token", false],
    ["s3cret-token", "s3cret-token", false],
  ])("authorization %j with token %j → %s", (authorization, token, expected) => {
    expect(isAuthorizedScrape(authorization, token)).toBe(expected);
  });
});

describe("metrics on the service's port without a token", () => {
  const request = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

  it("are shown to a scraper on this machine, not to anyone else or through a local proxy", () => {
    expect(isLocalScrape(request("127.0.0.1"))).toBe(true);
    expect(isLocalScrape(request("::1"))).toBe(true);
    expect(isLocalScrape(request("::ffff:127.0.0.1"))).toBe(true);
    expect(isLocalScrape(request("10.0.0.7"))).toBe(false);
    expect(isLocalScrape(request("203.0.113.9"))).toBe(false);
    expect(isLocalScrape(request("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }))).toBe(false);
    expect(isLocalScrape(request("127.0.0.1", { forwarded: "for=203.0.113.9" }))).toBe(false);
    expect(isLocalScrape(request("127.0.0.1", { "x-real-ip": "203.0.113.9" }))).toBe(false);
    expect(isLocalScrape(request("127.0.0.1", { via: "1.1 nginx" }))).toBe(false);
  });
});
