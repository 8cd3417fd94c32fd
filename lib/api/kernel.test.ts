import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isValidSignature, signRequest } from "./signature";
import { clientAddressOf, resolveClientIp, parseTrustedProxies, vouchedPeerAddress } from "./client-ip";
import { createRateLimiter } from "./rate-limit";
import { ERROR_CATALOGUE } from "@/lib/errors";
import { createSecretBox, parseMasterKey } from "@/lib/crypto/secret-box";
import { formatPercentBps } from "@/lib/domain/fees/platform-fee";
import { OPERATIONS } from "./operations";

describe("request signature", () => {
  const secret = "sk_test";
  const body = Buffer.from('{"amount":"10"}');

  it("is HMAC-SHA256 over timestamp, METHOD, path and body joined by line feeds, in lower-case hex", () => {
    const independent = createHmac("sha256", secret).update('1700000000\nPOST\n/v1/payment\n{"amount":"10"}').digest("hex");
    expect(signRequest(secret, "1700000000", "post", "/v1/payment", body)).toBe(independent);
    expect(independent).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["exact", 1700000000, true],
    ["300 s early", 1700000300, true],
    ["300 s late", 1699999700, true],
    ["301 s early", 1700000301, false],
    ["301 s late", 1699999699, false],
  ])("window: %s", (_label, nowSeconds, expected) => {
    const signature = signRequest(secret, "1700000000", "POST", "/v1/x", body);
    expect(isValidSignature({ secret, timestamp: "1700000000", method: "POST", path: "/v1/x", body, signature, nowSeconds })).toBe(expected);
  });

  it("refuses upper-case hex, a truncated signature and another path", () => {
    const signature = signRequest(secret, "1700000000", "POST", "/v1/x", body);
    const check = (sig: string, path = "/v1/x") =>
      isValidSignature({ secret, timestamp: "1700000000", method: "POST", path, body, signature: sig, nowSeconds: 1700000000 });
    expect(check(signature)).toBe(true);
    expect(check(signature.toUpperCase())).toBe(false);
    expect(check(signature.slice(0, 63))).toBe(false);
    expect(check(signature, "/v1/y")).toBe(false);
  });
});

describe("client address", () => {
  const proxies = parseTrustedProxies(["10.0.0.0/8"]);
  it.each([
    ["198.51.100.1", null, "198.51.100.1"],
    ["198.51.100.1", "203.0.113.9", "198.51.100.1"],
    ["10.1.1.1", "203.0.113.9", "203.0.113.9"],
    ["10.1.1.1", "192.0.2.5, 203.0.113.9, 10.2.2.2", "203.0.113.9"],
    ["::ffff:10.1.1.1", "2001:db8::5", "2001:db8::5"],
    [null, "203.0.113.9", ""],
  ])("peer %s with X-Forwarded-For %s → %s", (peer, forwarded, expected) => {
    expect(resolveClientIp(peer, forwarded, proxies)).toBe(expected);
  });

  it("answers the peer in canonical form, the same on every request, when no trusted proxy forwards", () => {
    for (let request = 0; request < 3; request++) {
      expect(resolveClientIp("::FFFF:198.51.100.7", null, proxies)).toBe(resolveClientIp("198.51.100.7", null, proxies));
      expect(resolveClientIp("2001:DB8:0:0::1", "203.0.113.9", [])).toBe("2001:db8::1");
      expect(resolveClientIp("not an address", null, proxies)).toBe("");
      expect(resolveClientIp("10.1.1.1", "203.0.113.9", [])).toBe("10.1.1.1");
    }
  });

  it("believes the peer header only with this process's token", () => {
    const headers = new Headers({ "x-gateway-peer-address": "198.51.100.1", "x-gateway-peer-token": "secret" });
    expect(vouchedPeerAddress(headers, "secret")).toBe("198.51.100.1");
    expect(vouchedPeerAddress(headers, "other")).toBeNull();
    expect(vouchedPeerAddress(headers, undefined)).toBeNull();
    expect(vouchedPeerAddress(new Headers({ "x-gateway-peer-address": "198.51.100.1" }), "secret")).toBeNull();
  });

  it("believes the platform's header only where no server of ours vouches for the peer", () => {
    const rules = { trustedProxies: proxies, platformHeader: "x-real-ip" };
    // Under Vercel's server: the edge set x-real-ip, nothing vouches for a peer.
    expect(clientAddressOf(new Headers({ "x-real-ip": "203.0.113.9" }), rules, undefined)).toBe("203.0.113.9");
    expect(clientAddressOf(new Headers({ "x-real-ip": "2001:DB8::5" }), rules, undefined)).toBe("2001:db8::5");
    expect(clientAddressOf(new Headers({ "x-real-ip": "not an address" }), rules, undefined)).toBe("");
    expect(clientAddressOf(new Headers({}), rules, undefined)).toBe("");
    // Without the setting the header means nothing.
    expect(clientAddressOf(new Headers({ "x-real-ip": "203.0.113.9" }), { trustedProxies: proxies, platformHeader: null }, undefined)).toBe("");
    // Behind npm start a client could send it, so the vouched peer wins.
    const vouched = new Headers({ "x-gateway-peer-address": "198.51.100.1", "x-gateway-peer-token": "t", "x-real-ip": "203.0.113.9" });
    expect(clientAddressOf(vouched, rules, "t")).toBe("198.51.100.1");
  });

  it("refuses a malformed trusted-proxy entry", () => {
    expect(() => parseTrustedProxies(["10.0.0.0/99"])).toThrow(/GATEWAY_TRUSTED_PROXIES/);
  });
});

describe("token bucket", () => {
  it("allows the burst, then one request per refill interval", () => {
    const limiter = createRateLimiter({ requestsPerSecond: 2, burst: 2 });
    expect(limiter.take("a", 0)).toBe(0);
    expect(limiter.take("a", 0)).toBe(0);
    expect(limiter.take("a", 0)).toBe(1);
    expect(limiter.take("a", 499)).toBe(1);
    expect(limiter.take("a", 500)).toBe(0);
    expect(limiter.take("b", 500)).toBe(0);
  });
});

describe("error catalogue", () => {
  it("holds only <domain>.<reason> codes with 4xx/5xx statuses and a message", () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[a-z]+\.[a-z0-9_]+$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.message.length).toBeGreaterThan(0);
    }
  });

  it("has the statuses of the spec's authentication table", () => {
    expect(ERROR_CATALOGUE["auth.bad_timestamp"].status).toBe(401);
    expect(ERROR_CATALOGUE["merchant.bad_signature"].status).toBe(401);
    expect(ERROR_CATALOGUE["merchant.unknown_key"].status).toBe(401);
    expect(ERROR_CATALOGUE["merchant.wrong_key_kind"].status).toBe(403);
    expect(ERROR_CATALOGUE["auth.ip_not_allowed"].status).toBe(401);
    expect(ERROR_CATALOGUE["auth.body_read"].status).toBe(400);
    expect(ERROR_CATALOGUE["request.bad_json"].status).toBe(400);
    expect(ERROR_CATALOGUE["idempotency.in_progress"].status).toBe(409);
    expect(ERROR_CATALOGUE["idempotency.bad_key"].status).toBe(400);
    expect(ERROR_CATALOGUE["idempotency.unavailable"].status).toBe(503);
  });
});

describe("operation table", () => {
  it("lists each method and path once, all under /v1/", () => {
    const keys = OPERATIONS.map((entry) => `${entry.method} ${entry.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of OPERATIONS) expect(entry.path.startsWith("/v1/")).toBe(true);
  });

  it("lets every signed operation be called by the unified key", () => {
    for (const entry of OPERATIONS) {
      if (entry.auth.kind === "signed") expect(entry.auth.keys).toContain("unified");
    }
  });
});

describe("secret box", () => {
  const box = createSecretBox(parseMasterKey("11".repeat(32)));
  it("round-trips and binds the ciphertext to its context", () => {
    const sealed = box.seal("sk_secret", "api-key:pk_1");
    expect(sealed).not.toContain("sk_secret");
    expect(box.open(sealed, "api-key:pk_1")).toBe("sk_secret");
    expect(() => box.open(sealed, "api-key:pk_2")).toThrow();
    expect(() => createSecretBox(parseMasterKey("22".repeat(32))).open(sealed, "api-key:pk_1")).toThrow();
    expect(box.seal("same", "c")).not.toBe(box.seal("same", "c"));
  });

  it("accepts a master key as hex or base64 of 32 bytes only", () => {
    expect(parseMasterKey(Buffer.alloc(32, 7).toString("base64")).length).toBe(32);
    expect(() => parseMasterKey("abcd")).toThrow(/32 bytes/);
  });
});

describe("percent formatting", () => {
  it.each([
    [150, "1.5"],
    [100, "1"],
    [5, "0.05"],
    [0, "0"],
    [1234, "12.34"],
  ])("%i bps → %s", (bps, text) => {
    expect(formatPercentBps(bps)).toBe(text);
  });
});
