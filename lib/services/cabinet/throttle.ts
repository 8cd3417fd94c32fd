import type { Db, Tx } from "@/lib/db/client";

/** How many failures in how long lock a key, and for how long. */
export interface ThrottlePolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

// spec (issue): five wrong codes lock the account for a while. Passwords and codes count together.
export const ACCOUNT_POLICY: ThrottlePolicy = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
// An address guessing across many accounts: more room (offices share an address), same lock.
export const ADDRESS_POLICY: ThrottlePolicy = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

export const accountKey = (userId: string) => `account:${userId}`;
export const addressKey = (ipAddress: string) => `address:${ipAddress || "unknown"}`;

/** The latest lock among the keys still in force at `now`, or null. */
export async function activeLockUntil(db: Db | Tx, keys: string[], now: Date): Promise<Date | null> {
  const rows = await db.cabinetThrottle.findMany({ where: { key: { in: keys }, lockedUntil: { gt: now } }, select: { lockedUntil: true } });
  const times = rows.map((row) => row.lockedUntil!.getTime());
  return times.length === 0 ? null : new Date(Math.max(...times));
}

/**
 * Counts one failure against the key in one statement (racing failures each count) and returns
 * the lock it brought about, or null. A window older than the policy's starts again at 1.
 */
export async function countFailure(db: Db | Tx, key: string, policy: ThrottlePolicy, now: Date): Promise<Date | null> {
  const windowStart = new Date(now.getTime() - policy.windowMs);
  const lockUntil = new Date(now.getTime() + policy.lockMs);
  const rows = await db.$queryRaw<{ locked_until: Date | null }[]>`
    INSERT INTO cabinet_throttles (key, failures, window_started_at, locked_until)
    VALUES (${key}, 1, ${now}, ${policy.maxFailures <= 1 ? lockUntil : null})
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN cabinet_throttles.window_started_at < ${windowStart} THEN 1 ELSE cabinet_throttles.failures + 1 END,
      window_started_at = CASE WHEN cabinet_throttles.window_started_at < ${windowStart} THEN ${now} ELSE cabinet_throttles.window_started_at END,
      locked_until = CASE
        WHEN cabinet_throttles.window_started_at >= ${windowStart} AND cabinet_throttles.failures + 1 >= ${policy.maxFailures} THEN ${lockUntil}
        ELSE cabinet_throttles.locked_until END
    RETURNING locked_until`;
  const lockedUntil = rows[0]?.locked_until ?? null;
  return lockedUntil && lockedUntil > now ? lockedUntil : null;
}

/** A success forgets the key's failures (an account's, not an address's: others may be guessing from it). */
export async function clearFailures(db: Db | Tx, key: string): Promise<void> {
  await db.cabinetThrottle.deleteMany({ where: { key } });
}
