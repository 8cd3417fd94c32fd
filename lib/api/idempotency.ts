import { createHash } from "node:crypto";
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
  | { kind: "claimed" }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "in_progress" };

export interface IdempotencyScope {
  merchantId: string;
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
 * after IDEMPOTENCY_LOCK_SECONDS and may then be taken over. Database failures become
 * `idempotency.unavailable` (the request was not executed).
 */
export async function claimIdempotencyKey(db: Db, scope: IdempotencyScope, requestHash: string, now: Date): Promise<IdempotencyClaim> {
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LOCK_SECONDS * 1000);
  try {
    const inserted = await db.idempotencyRecord.createMany({
      data: [{ ...scope, requestHash, state: "in_progress", lockedUntil, createdAt: now }],
      skipDuplicates: true,
    });
    if (inserted.count === 1) return { kind: "claimed" };
    const existing = await db.idempotencyRecord.findUnique({
      where: { merchantId_operation_key: scope },
      select: { state: true, responseStatus: true, responseBody: true, lockedUntil: true },
    });
    if (!existing) return claimIdempotencyKey(db, scope, requestHash, now); // purged in between
    if (existing.state === "done" && existing.responseStatus !== null && existing.responseBody !== null) {
      return { kind: "replay", response: { status: existing.responseStatus, body: existing.responseBody } };
    }
    if (existing.lockedUntil > now) return { kind: "in_progress" };
    const takenOver = await db.idempotencyRecord.updateMany({
      where: { ...scope, state: "in_progress", lockedUntil: { lte: now } },
      data: { requestHash, lockedUntil },
    });
    return takenOver.count === 1 ? { kind: "claimed" } : { kind: "in_progress" };
  } catch (error) {
    throw new AppError("idempotency.unavailable", undefined, { cause: error });
  }
}

/** Stores the response every repeat will replay. */
export async function completeIdempotencyKey(db: Db, scope: IdempotencyScope, response: StoredResponse): Promise<void> {
  await db.idempotencyRecord.update({
    where: { merchantId_operation_key: scope },
    data: { state: "done", responseStatus: response.status, responseBody: response.body },
  });
}

/** Drops a claim whose attempt failed unexpectedly, so a retry with the same key runs again. */
export async function releaseIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { ...scope, state: "in_progress" } });
}

/** Deletes completed records older than the retention period; returns how many. */
export async function purgeIdempotencyRecords(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_HOURS * 3600 * 1000);
  const { count } = await db.idempotencyRecord.deleteMany({ where: { createdAt: { lt: cutoff }, lockedUntil: { lt: now } } });
  return count;
}
