import { describe, expect, it } from "vitest";
import { callApi, callSigned, makeMerchant, makeTestDeps, signedRequest, type TestMerchant } from "@/lib/testing/harness";
import { createRateLimiter } from "./rate-limit";

describe("rate limiting", () => {
  it("answers 429 with {state: 1, message} and Retry-After once a caller's burst is spent", async () => {
    const merchant = await makeMerchant();
    let nowMs = Date.parse("2026-01-01T00:00:00Z");
    const deps = makeTestDeps({ rateLimiter: createRateLimiter({ requestsPerSecond: 1, burst: 3 }), now: () => new Date(nowMs) });
    const signedAt = { timestamp: Math.floor(nowMs / 1000) };
    const call = () => callApi(signedRequestAt(merchant, signedAt.timestamp), { deps });
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ state: 1, message: expect.any(String) });
    expect(limited.body.error).toBeUndefined();
    expect(limited.headers.get("retry-after")).toBe("1");
    nowMs += 1000;
    expect((await call()).status).toBe(200);
  });

  it("counts each merchant separately", async () => {
    const deps = makeTestDeps({ rateLimiter: createRateLimiter({ requestsPerSecond: 1, burst: 1 }) });
    const one = await makeMerchant();
    const two = await makeMerchant();
    expect((await callSigned("/v1/api-allowlist/list", {}, one, { deps })).status).toBe(200);
    expect((await callSigned("/v1/api-allowlist/list", {}, one, { deps })).status).toBe(429);
    expect((await callSigned("/v1/api-allowlist/list", {}, two, { deps })).status).toBe(200);
  });

  it("limits public calls per client address", async () => {
    const deps = makeTestDeps({ rateLimiter: createRateLimiter({ requestsPerSecond: 1, burst: 2 }) });
    const get = (clientIp: string) => callApi(new Request("http://gateway.test/v1/currencies"), { deps, clientIp });
    expect((await get("192.0.2.1")).status).toBe(200);
    expect((await get("192.0.2.1")).status).toBe(200);
    expect((await get("192.0.2.1")).status).toBe(429);
    expect((await get("192.0.2.2")).status).toBe(200);
  });
});

function signedRequestAt(merchant: TestMerchant, timestamp: number) {
  return signedRequest("/v1/api-allowlist/list", "{}", merchant, { timestamp });
}
