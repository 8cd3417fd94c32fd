import { describe, expect, it } from "vitest";
import { OPERATIONS } from "./operations";
import { API_KEY_KINDS } from "@/lib/auth/api-key-identity";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { addApiKey, callApi, getTestDb, makeMerchant, signedRequest } from "@/lib/testing/harness";
import { signRequest } from "./signature";
import { MAX_BODY_BYTES } from "./dispatch";

const SIGNED = OPERATIONS.filter((entry) => entry.auth.kind === "signed");
const now = () => Math.floor(Date.now() / 1000);

// spec: Authentication — every row of the error table, for every signed operation in the table.
describe.each(SIGNED.map((entry) => [entry.path, entry] as const))("signed operation %s", (path, entry) => {
  it("answers auth.bad_timestamp 401 when X-Timestamp is missing or not a number", async () => {
    const merchant = await makeMerchant();
    for (const timestamp of [null, "", "abc", "12.5", "1e9", "-", "0x10"]) {
      const response = await callApi(signedRequest(path, "{}", merchant, { timestamp }));
      expect(response.status, `timestamp ${JSON.stringify(timestamp)}`).toBe(401);
      expect(response.body.error.code).toBe("auth.bad_timestamp");
    }
  });

  it("answers merchant.bad_signature 401 for a wrong signature, a changed byte, or a timestamp outside ±5 minutes", async () => {
    const merchant = await makeMerchant();
    const cases = [
      signedRequest(path, "{}", merchant, { signature: "0".repeat(64) }),
      signedRequest(path, "{}", merchant, { signature: "" }),
      signedRequest(path, "{}", merchant, { signature: signRequest("sk_wrong", String(now()), "POST", path, "{}") }),
      signedRequest(path, "{}", merchant, { sentBody: "{ }" }),
      signedRequest(path, '{"a":1}', merchant, { sentBody: '{"a":2}' }),
      signedRequest(path, "{}", merchant, { timestamp: now() - 330 }),
      signedRequest(path, "{}", merchant, { timestamp: now() + 330 }),
    ];
    for (const request of cases) {
      const response = await callApi(request);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe("merchant.bad_signature");
    }
  });

  it("accepts timestamps inside the window", async () => {
    const merchant = await makeMerchant();
    for (const timestamp of [now() - 270, now() + 270]) {
      const response = await callApi(signedRequest(path, "{}", merchant, { timestamp }));
      expect(response.body.error?.code).not.toBe("merchant.bad_signature");
      expect(response.status).not.toBe(401);
    }
  });

  it("answers merchant.unknown_key 401 for an unknown, missing or revoked key", async () => {
    const merchant = await makeMerchant();
    const unknown = await callApi(signedRequest(path, "{}", merchant, { publicId: "pk_000000000000000000000000" }));
    const missing = await callApi(signedRequest(path, "{}", merchant, { publicId: null }));
    await revokeApiKey(getTestDb(), merchant.publicId, new Date());
    const revoked = await callApi(signedRequest(path, "{}", merchant));
    for (const response of [unknown, missing, revoked]) {
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe("merchant.unknown_key");
    }
  });

  it("answers merchant.wrong_key_kind 403 to key kinds without the right, and lets the others through", async () => {
    if (entry.auth.kind !== "signed") throw new Error("unreachable");
    const merchant = await makeMerchant();
    for (const kind of API_KEY_KINDS) {
      const key = await addApiKey(merchant.merchantId, kind);
      const response = await callApi(signedRequest(path, "{}", key));
      if (entry.auth.keys.includes(kind)) {
        expect(response.body.error?.code, kind).not.toBe("merchant.wrong_key_kind");
      } else {
        expect(response.status, kind).toBe(403);
        expect(response.body.error.code).toBe("merchant.wrong_key_kind");
      }
    }
  });

  it("answers auth.ip_not_allowed 401 from outside an enabled allow-list", async () => {
    const merchant = await makeMerchant();
    const db = getTestDb();
    await db.allowlistEntry.createMany({ data: [{ merchantId: merchant.merchantId, cidr: "203.0.113.0/24" }, { merchantId: merchant.merchantId, cidr: "2001:db8::/32" }] });
    await db.merchant.update({ where: { id: merchant.merchantId }, data: { allowlistEnabled: true } });
    const outside = await callApi(signedRequest(path, "{}", merchant), { clientIp: "198.51.100.7" });
    expect(outside.status).toBe(401);
    expect(outside.body.error.code).toBe("auth.ip_not_allowed");
    for (const clientIp of ["203.0.113.9", "2001:db8:1::5", "::ffff:203.0.113.200"]) {
      const inside = await callApi(signedRequest(path, "{}", merchant), { clientIp });
      expect(inside.body.error?.code, clientIp).not.toBe("auth.ip_not_allowed");
    }
  });

  it("refuses a body over 1 MiB with request.too_large 413", async () => {
    const merchant = await makeMerchant();
    const big = JSON.stringify({ padding: "x".repeat(MAX_BODY_BYTES) });
    const response = await callApi(signedRequest(path, big, merchant));
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe("request.too_large");
  });

  it("answers request.bad_json 400 to a signed body that is not JSON", async () => {
    const merchant = await makeMerchant();
    for (const body of ["{", "not json", '{"a":}', "\u00ff"]) {
      const response = await callApi(signedRequest(path, body, merchant));
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("request.bad_json");
    }
  });
});

describe("transport", () => {
  it("answers auth.body_read 400 when the body cannot be read", async () => {
    const merchant = await makeMerchant();
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    const timestamp = String(now());
    const request = new Request("http://gateway.test/v1/payment/services", {
      method: "POST",
      headers: { "x-public-id": merchant.publicId, "x-timestamp": timestamp, "x-signature": signRequest(merchant.secret, timestamp, "POST", "/v1/payment/services", "{}") },
      body: failing,
      duplex: "half",
    } as RequestInit);
    const response = await callApi(request);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("auth.body_read");
  });

  it("refuses an over-long body by its Content-Length before reading it", async () => {
    const merchant = await makeMerchant();
    const request = signedRequest("/v1/payment/services", "{}", merchant, { headers: { "content-length": String(MAX_BODY_BYTES + 1) } });
    const response = await callApi(request);
    expect(response.status).toBe(413);
  });

  it("accepts a body of exactly 1 MiB", async () => {
    const merchant = await makeMerchant();
    const prefix = '{"padding":"';
    const body = prefix + "x".repeat(MAX_BODY_BYTES - prefix.length - 2) + '"}';
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const response = await callApi(signedRequest("/v1/payment/services", body, merchant));
    expect(response.status).toBe(200);
  });

  it("answers request.not_found 404 and request.method_not_allowed 405 in the error envelope", async () => {
    const notFound = await callApi(new Request("http://gateway.test/v1/nope", { method: "POST", body: "{}" }));
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ error: { code: "request.not_found", message: expect.any(String) } });
    const wrongMethod = await callApi(new Request("http://gateway.test/v1/currencies", { method: "POST", body: "{}" }));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe("request.method_not_allowed");
  });

  it("wraps success in {state: 0, result} and errors in {error: {code, message}}", async () => {
    const merchant = await makeMerchant();
    const ok = await callApi(signedRequest("/v1/api-allowlist/list", "{}", merchant));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ state: 0, result: { entries: [], enabled: false } });
    const failed = await callApi(signedRequest("/v1/api-allowlist/add", '{"cidr":"nope"}', merchant));
    expect(failed.status).toBe(400);
    expect(Object.keys(failed.body)).toEqual(["error"]);
    expect(Object.keys(failed.body.error).sort()).toEqual(["code", "message"]);
  });

  it("serves GET /v1/currencies bare, without the envelope or a signature", async () => {
    const response = await callApi(new Request("http://gateway.test/v1/currencies"));
    expect(response.status).toBe(200);
    expect(response.body.state).toBeUndefined();
    expect(Array.isArray(response.body.currencies)).toBe(true);
  });

  it("treats an empty body as {} on read operations", async () => {
    const merchant = await makeMerchant();
    const response = await callApi(signedRequest("/v1/api-allowlist/list", "", merchant));
    expect(response.status).toBe(200);
  });
});
