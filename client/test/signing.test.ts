import { describe, expect, it } from "vitest";
import { isValidSignature, signRequest as serviceSignRequest } from "@/lib/api/signature";
import { signatureHeaders, signRequest } from "../src";

// The client signs exactly as the service verifies (lib/api/signature.ts), byte for byte.

const SECRET = "sk_test_0123456789abcdef";

const CASES: { name: string; timestamp: string; method: string; path: string; body: string }[] = [
  { name: "create invoice", timestamp: "1767225600", method: "POST", path: "/v1/payment", body: '{"amount":"10.00","currency":"USD"}' },
  { name: "empty object", timestamp: "1767225600", method: "POST", path: "/v1/balance", body: "{}" },
  { name: "no body", timestamp: "1767225600", method: "GET", path: "/v1/currencies", body: "" },
  { name: "lower-case method", timestamp: "1767225600", method: "post", path: "/v1/payment/info", body: '{"uuid":"x"}' },
  { name: "query string", timestamp: "1", method: "POST", path: "/v1/payment/history?trace=1", body: "{}" },
  { name: "multi-byte text", timestamp: "1767225600", method: "POST", path: "/v1/payment", body: '{"additional_data":"Zahlung für Bestellung №7 — 東京 🙂"}' },
  { name: "line feeds in the body", timestamp: "1767225600", method: "POST", path: "/v1/payment", body: '{\n  "amount": "1"\n}' },
];

describe("signRequest", () => {
  it.each(CASES)("matches the service's signature: $name", ({ timestamp, method, path, body }) => {
    const bytes = new TextEncoder().encode(body);
    expect(signRequest({ secret: SECRET, timestamp, method, pathWithQuery: path, body: bytes })).toBe(serviceSignRequest(SECRET, timestamp, method, path, bytes));
  });

  it("is the hex HMAC-SHA256 of `<timestamp>\\n<METHOD>\\n<path>\\n<body>`", () => {
    const body = new TextEncoder().encode("{}");
    expect(signRequest({ secret: "secret", timestamp: "1700000000", method: "POST", pathWithQuery: "/v1/balance", body })).toBe(
      "94e16b53b36e4023ce3c1960a475e9ce1990a7fffdbf45569736b6402d6febab",
    );
  });

  it("changes with any byte of the body, so the sent bytes must be the signed bytes", () => {
    const compact = new TextEncoder().encode('{"amount":"1"}');
    const spaced = new TextEncoder().encode('{"amount": "1"}');
    const sign = (body: Uint8Array) => signRequest({ secret: SECRET, timestamp: "1", method: "POST", pathWithQuery: "/v1/payment", body });
    expect(sign(compact)).not.toBe(sign(spaced));
  });
});

describe("signatureHeaders", () => {
  it("produces headers the service accepts inside the ±5 minute window and refuses outside it", () => {
    const body = new TextEncoder().encode('{"uuid":"3f2b8c1e-6d4a-4f7e-9b21-5c8d0e7a6f13"}');
    const headers = signatureHeaders({ publicId: "pk_1", secret: SECRET, timestampSeconds: 1767225600, method: "POST", pathWithQuery: "/v1/payment/info", body });
    expect(headers["X-Public-Id"]).toBe("pk_1");
    expect(headers["X-Timestamp"]).toBe("1767225600");
    const check = (nowSeconds: number) =>
      isValidSignature({ secret: SECRET, timestamp: headers["X-Timestamp"], method: "POST", path: "/v1/payment/info", body, signature: headers["X-Signature"], nowSeconds });
    expect(check(1767225600 + 300)).toBe(true);
    expect(check(1767225600 - 300)).toBe(true);
    expect(check(1767225600 + 301)).toBe(false);
  });
});
