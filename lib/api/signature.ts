import { createHmac, timingSafeEqual } from "node:crypto";

/** spec: Authentication — the accepted clock skew of X-Timestamp, in seconds. */
export const SIGNATURE_WINDOW_SECONDS = 300;

/**
 * Hex HMAC-SHA256 over `<timestamp>\n<METHOD>\n<path>\n<body>`, keyed with the API secret.
 * The body is the exact bytes of the request, never a re-serialisation.
 */
export function signRequest(secret: string, timestamp: string, method: string, path: string, body: Uint8Array | string): string {
  const hmac = createHmac("sha256", secret);
  hmac.update(`${timestamp}\n${method.toUpperCase()}\n${path}\n`);
  hmac.update(typeof body === "string" ? Buffer.from(body, "utf8") : body);
  return hmac.digest("hex");
}

/** Whether X-Timestamp is a plain integer of Unix seconds. */
export function isWellFormedTimestamp(value: string | null): value is string {
  return value !== null && /^-?\d{1,15}$/.test(value);
}

/** Constant-time check of a signature and of the ±5 minute window around `nowSeconds`. */
export function isValidSignature(input: {
  secret: string;
  timestamp: string;
  method: string;
  path: string;
  body: Uint8Array;
  signature: string | null;
  nowSeconds: number;
}): boolean {
  const expected = Buffer.from(signRequest(input.secret, input.timestamp, input.method, input.path, input.body), "utf8");
  const provided = Buffer.from(input.signature ?? "", "utf8");
  // The lengths of a valid signature are public (64 hex digits), so comparing them leaks nothing.
  const isMatch = provided.length === expected.length && timingSafeEqual(provided, expected);
  const isInWindow = Math.abs(input.nowSeconds - Number(input.timestamp)) <= SIGNATURE_WINDOW_SECONDS;
  return isMatch && isInWindow;
}
