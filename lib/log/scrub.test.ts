import { describe, expect, it } from "vitest";
import { createLog } from "./index";
import { isSecretKey, REDACTED, scrubLogValue, scrubText } from "./scrub";

/** Logs through a real logger into memory; returns the raw text of the lines. */
function logged(write: (log: ReturnType<typeof createLog>) => void): string {
  const lines: string[] = [];
  write(createLog({ level: "debug", destination: { write: (line) => void lines.push(line) } }));
  return lines.join("");
}

describe("secrets never reach a line", () => {
  // Each kind of secret under the names code uses for it, at the top, nested and inside arrays.
  const SECRETS = {
    secret: "sk_live_6f1d0c2a9b",
    webhookSecret: "whsec_secret_value_1",
    signature: "5d41402abc4b2a76b9719d911017c592",
    seed: "000102030405060708090a0b0c0d0e0f",
    mnemonic: "abandon ability able about above absent absorb abstract absurd abuse access accident",
    privateKey: "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    private_key: "L1aW4aubDFB7yfras2S1mN3bqg9nwySY8nkoLmJebSLD5BWv3ENZ",
    password: "correct horse battery staple",
    totpCode: "492039",
    otp: "118204",
    token: "tok_a8f5f167f44f4964e6c998dee827110c",
    claimToken: "clm_0b4c8a7e2f",
    cookie: "next-auth.session-token=eyJhbGciOiJIUzI1NiJ9.secretpayload",
    recoveryCodes: ["rc-1111-2222", "rc-3333-4444"],
    masterKey: "7e7e7e7e7e7e7e7e",
  };
  const HEADERS = {
    authorization: "Bearer abcdef0123456789",
    "X-Signature": "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
    "x-webhook-signature": "t=1700000000,v1=2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
    "set-cookie": "session=9f86d081884c7d659a2feaa0c55ad015",
    "content-type": "application/json",
  };
  const secretValues = [...Object.values(SECRETS).flat(), ...Object.entries(HEADERS).filter(([name]) => name !== "content-type").map(([, value]) => value)];

  it.each([
    ["at the top", SECRETS],
    ["nested deep", { request: { merchant: { settings: { webhook: { keys: SECRETS } } } } }],
    ["inside arrays", { items: [SECRETS, { nested: [SECRETS] }] }],
    ["as request headers", { headers: HEADERS, request: { headers: HEADERS } }],
    ["in an error's own fields", { error: Object.assign(new Error("signing failed"), { config: { headers: HEADERS, ...SECRETS } }) }],
  ])("%s", (_where, fields) => {
    const text = logged((log) => log.info("operation", fields));
    for (const value of secretValues) expect(text).not.toContain(value);
    expect(text).toContain(REDACTED);
  });

  it("keeps the fields that only look alike", () => {
    const line = JSON.parse(logged((log) => log.info("ok", { code: "payment.not_found", key: "idem-1", network: "tron", txid: "ab12", "content-type": "application/json" })));
    expect(line).toMatchObject({ code: "payment.not_found", key: "idem-1", network: "tron", txid: "ab12", "content-type": "application/json" });
  });

  it("cuts e-mail addresses out of the message, fields, nested strings and errors", () => {
    const addresses = ["alice@example.com", "Bob.Smith+shop@mail.example.co.uk", "carol_99@sub-domain.example.org"];
    const text = logged((log) =>
      log.error(`mail to ${addresses[0]} bounced`, {
        email: addresses[0],
        recipients: [addresses[1]],
        note: `forwarded by ${addresses[2]}\nand more`,
        error: new Error(`SMTP refused ${addresses[1]}`, { cause: new Error(`mailbox ${addresses[2]} full`) }),
      }),
    );
    for (const address of addresses) expect(text).not.toContain(address);
    const line = JSON.parse(text);
    expect(line.msg).toBe("mail to [email] bounced");
    expect(line.note).toBe("forwarded by [email]\nand more");
    expect(line.error.message).toBe("SMTP refused [email]");
    expect(line.error.cause.message).toBe("mailbox [email] full");
  });

  it.each([
    ["a URL's password", "smtp://mailer:hunter2@smtp.example.com:587", "smtp://mailer:[redacted]@smtp.example.com:587"],
    ["an RPC URL's password", "http://rpcuser:s3cr3t@127.0.0.1:19443/wallet", "http://rpcuser:[redacted]@127.0.0.1:19443/wallet"],
    ["an otpauth secret", "otpauth://totp/Gateway:owner?secret=JBSWY3DPEHPK3PXP&issuer=Gateway", "otpauth://totp/Gateway:owner?secret=[redacted]&issuer=Gateway"],
    ["a token parameter", "https://hooks.example/cb?id=7&access_token=abc123", "https://hooks.example/cb?id=7&access_token=[redacted]"],
    ["a claim URL's token", "claim at https://pay.example/claim/q7Zk2Lr9Vb then", "claim at https://pay.example/claim/[redacted] then"],
    ["not a template's token", "/v1/claim/{token} and /v1/claim/<token>", "/v1/claim/{token} and /v1/claim/<token>"],
    ["nothing in plain text", "payout 42 sent to TXYZ on tron", "payout 42 sent to TXYZ on tron"],
  ])("scrubs %s", (_what, text, expected) => {
    expect(scrubText(text)).toBe(expected);
  });
});

describe("isSecretKey", () => {
  it.each([
    ["secret", true],
    ["webhookSecret", true],
    ["api_secret", true],
    ["X-Signature", true],
    ["x-webhook-signature", true],
    ["Authorization", true],
    ["cookie", true],
    ["Set-Cookie", true],
    ["seed", true],
    ["seedPhrase", true],
    ["mnemonic", true],
    ["privateKey", true],
    ["PRIVATE_KEY", true],
    ["masterKey", true],
    ["apiKey", true],
    ["password", true],
    ["newPassword", true],
    ["totp", true],
    ["totpCode", true],
    ["otpauthUrl", true],
    ["token", true],
    ["claimToken", true],
    ["recoveryCodes", true],
    ["code", false],
    ["key", false],
    ["publicId", false],
    ["footprint", false],
    ["network", false],
    ["merchant_id", false],
    ["request_id", false],
    ["reference", false],
  ])("%s → %s", (key, expected) => {
    expect(isSecretKey(key)).toBe(expected);
  });
});

describe("scrubLogValue", () => {
  it("writes bigints as strings at any depth", () => {
    expect(scrubLogValue({ amount: 10n ** 30n, legs: [{ amount: -5n }], byAsset: new Map([["usdt", 7n]]) })).toEqual({
      amount: "1000000000000000000000000000000",
      legs: [{ amount: "-5" }],
      byAsset: { usdt: "7" },
    });
  });

  it("keeps dates, drops functions, names raw bytes by length and survives cycles", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(scrubLogValue({ at: new Date("2026-01-02T03:04:05.000Z"), run: () => 1, bytes: new Uint8Array(32), cyclic })).toEqual({
      at: "2026-01-02T03:04:05.000Z",
      bytes: "[32 bytes]",
      cyclic: { name: "loop", self: "[circular]" },
    });
  });

  it("stops at a depth a line can hold", () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 20; i++) deep = { deeper: deep };
    expect(JSON.stringify(scrubLogValue(deep))).toContain("[too deep]");
  });
});
