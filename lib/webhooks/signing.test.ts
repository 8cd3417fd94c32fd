import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "./signing";

describe("webhook signature", () => {
  const secret = "whsec_test";
  const rawBody = '{"type":"payment","status":"paid"}';
  const timestamp = "1700000000";
  const signature = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
  const headers = { "x-webhook-timestamp": timestamp, "x-webhook-signature": signature };

  it("is HMAC-SHA256 of `<timestamp>.<raw body>` in hex", () => {
    expect(signWebhook(secret, timestamp, rawBody)).toBe(signature);
  });

  it("verifies the raw body, the secret and a fresh timestamp", () => {
    expect(verifyWebhook({ rawBody, headers, secrets: [secret], nowSeconds: 1700000100 })).toBe(true);
    expect(verifyWebhook({ rawBody: rawBody.replace("paid", "paid "), headers, secrets: [secret], nowSeconds: 1700000100 })).toBe(false);
    expect(verifyWebhook({ rawBody, headers, secrets: ["whsec_other"], nowSeconds: 1700000100 })).toBe(false);
    expect(verifyWebhook({ rawBody, headers, secrets: [secret], nowSeconds: 1700000301 })).toBe(false);
    expect(verifyWebhook({ rawBody, headers: { ...headers, "x-webhook-timestamp": "abc" }, secrets: [secret], nowSeconds: 1700000000 })).toBe(false);
    expect(verifyWebhook({ rawBody, headers: new Headers(headers), secrets: [secret], nowSeconds: 1700000000 })).toBe(true);
  });

  it("accepts either secret during a rotation, from either signature header", () => {
    const previous = createHmac("sha256", "whsec_old").update(`${timestamp}.${rawBody}`).digest("hex");
    const rotating = { ...headers, "x-webhook-signature-previous": previous };
    expect(verifyWebhook({ rawBody, headers: rotating, secrets: ["whsec_old"], nowSeconds: 1700000000 })).toBe(true);
    expect(verifyWebhook({ rawBody, headers: rotating, secrets: [secret, "whsec_old"], nowSeconds: 1700000000 })).toBe(true);
  });

  it("answers false, never throws, for a signature of 64 characters that are not hex", () => {
    const forged = { ...headers, "x-webhook-signature": "é".repeat(64) };
    expect(verifyWebhook({ rawBody, headers: forged, secrets: [secret], nowSeconds: 1700000000 })).toBe(false);
  });
});
