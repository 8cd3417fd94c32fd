import { randomUUID } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/** How long a claim blocks repeats before a crashed attempt may be taken over (renewed while the attempt runs). */
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

/**
 * Stores the response every repeat will replay — only while this attempt still holds the claim.
 * Given the operation's own transaction, the response commits with its writes or not at all;
 * an attempt that lost its claim (it ran past the lock and another took over) is refused there,
 * which rolls its writes back. Returns whether this attempt completed the key.
 */
export async function completeIdempotencyKey(db: Db | Tx, scope: IdempotencyScope, claimToken: string, response: StoredResponse): Promise<boolean> {
  const { count } = await db.idempotencyRecord.updateMany({
    where: { ...scope, claimToken, state: "in_progress" },
    data: { state: "done", responseStatus: response.status, responseBody: response.body },
  });
  return count === 1;
}

/** Keeps this attempt's claim while its work runs, so a slow attempt is not taken over. */
export async function renewIdempotencyClaim(db: Db, scope: IdempotencyScope, claimToken: string, now: Date): Promise<void> {
  await db.idempotencyRecord.updateMany({
    where: { ...scope, claimToken, state: "in_progress" },
    data: { lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_SECONDS * 1000) },
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
