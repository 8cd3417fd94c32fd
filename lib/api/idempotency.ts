import { createHash, randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/** spec: Limits — Idempotency-Key is 1 to 255 characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a claim blocks repeats before a crashed attempt may be taken over. */
export const IDEMPOTENCY_LOCK_SECONDS = 60;
/** How long completed responses are kept for replay. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

export interface StoredResponse {
  status: number;
  body: string;
}

export type IdempotencyClaim =
  | { kind: "claimed"; claimToken: string }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "in_progress" };

export interface IdempotencyScope {
  merchantId: string;
  /** The request path: keys are scoped to one merchant and one resource path. */
  operation: string;
  key: string;
}

/** Checks the header value; throws `idempotency.bad_key` for an empty or over-long key. */
export function validateIdempotencyKey(value: string): string {
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw new AppError("idempotency.bad_key");
  return value;
}

export function hashRequestBody(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}

/**
 * Claims a key for one attempt. The insert is the lock: of two concurrent identical requests
 * exactly one inserts, the other sees `in_progress`. A claim whose holder crashed expires
 * after IDEMPOTENCY_LOCK_SECONDS and may then be taken over, under a new claim token. A key
 * reused with another body is `idempotency.key_reused`. Database failures become
 * `idempotency.unavailable` (the request was not executed).
 */
export async function claimIdempotencyKey(db: Db, scope: IdempotencyScope, requestHash: string, now: Date): Promise<IdempotencyClaim> {
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LOCK_SECONDS * 1000);
  const claimToken = randomUUID();
  let existing;
  try {
    const inserted = await db.idempotencyRecord.createMany({
      data: [{ ...scope, requestHash, claimToken, state: "in_progress", lockedUntil, createdAt: now }],
      skipDuplicates: true,
    });
    if (inserted.count === 1) return { kind: "claimed", claimToken };
    existing = await db.idempotencyRecord.findUnique({
      where: { merchantId_operation_key: scope },
      select: { state: true, requestHash: true, responseStatus: true, responseBody: true, lockedUntil: true },
    });
  } catch (error) {
    throw new AppError("idempotency.unavailable", undefined, { cause: error });
  }
  if (!existing) return claimIdempotencyKey(db, scope, requestHash, now); // purged in between
  if (existing.requestHash !== requestHash) throw new AppError("idempotency.key_reused");
  if (existing.state === "done" && existing.responseStatus !== null && existing.responseBody !== null) {
    return { kind: "replay", response: { status: existing.responseStatus, body: existing.responseBody } };
  }
  if (existing.lockedUntil > now) return { kind: "in_progress" };
  try {
    const takenOver = await db.idempotencyRecord.updateMany({
      where: { ...scope, state: "in_progress", lockedUntil: { lte: now } },
      data: { claimToken, lockedUntil },
    });
    return takenOver.count === 1 ? { kind: "claimed", claimToken } : { kind: "in_progress" };
  } catch (error) {
    throw new AppError("idempotency.unavailable", undefined, { cause: error });
  }
}

/** Stores the response every repeat will replay — only while this attempt still holds the claim. */
export async function completeIdempotencyKey(db: Db, scope: IdempotencyScope, claimToken: string, response: StoredResponse): Promise<void> {
  await db.idempotencyRecord.updateMany({
    where: { ...scope, claimToken, state: "in_progress" },
    data: { state: "done", responseStatus: response.status, responseBody: response.body },
  });
}

/** Drops this attempt's claim after it failed unexpectedly, so a retry with the same key runs again. */
export async function releaseIdempotencyKey(db: Db, scope: IdempotencyScope, claimToken: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { ...scope, claimToken, state: "in_progress" } });
}

/** Deletes completed records older than the retention period; returns how many. */
export async function purgeIdempotencyRecords(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_HOURS * 3600 * 1000);
  const { count } = await db.idempotencyRecord.deleteMany({ where: { createdAt: { lt: cutoff }, lockedUntil: { lt: now } } });
  return count;
}
