import { createHash } from "node:crypto";
import { AppError } from "@/lib/errors";

/** spec: Limits — Idempotency-Key is 1 to 255 characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Checks the header value; throws `idempotency.bad_key` for an empty or over-long key. */
export function validateIdempotencyKey(value: string): string {
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw new AppError("idempotency.bad_key");
  return value;
}

export function hashRequestBody(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}
