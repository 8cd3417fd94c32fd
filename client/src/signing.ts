import { createHmac } from "node:crypto";

/**
 * The X-Signature of a request: hex HMAC-SHA256, keyed with the API secret, over
 * `<timestamp>\n<METHOD>\n<path with query>\n<body>`, where body is the exact bytes sent.
 */
export function signRequest(input: { secret: string; timestamp: string; method: string; pathWithQuery: string; body: Uint8Array }): string {
  return createHmac("sha256", input.secret)
    .update(`${input.timestamp}\n${input.method.toUpperCase()}\n${input.pathWithQuery}\n`)
    .update(input.body)
    .digest("hex");
}

/** The three authentication headers of a signed request, for the bytes that will be sent. */
export function signatureHeaders(input: {
  publicId: string;
  secret: string;
  /** Unix seconds. */
  timestampSeconds: number;
  method: string;
  pathWithQuery: string;
  body: Uint8Array;
}): Record<"X-Public-Id" | "X-Timestamp" | "X-Signature", string> {
  const timestamp = String(input.timestampSeconds);
  return {
    "X-Public-Id": input.publicId,
    "X-Timestamp": timestamp,
    "X-Signature": signRequest({ secret: input.secret, timestamp, method: input.method, pathWithQuery: input.pathWithQuery, body: input.body }),
  };
}
