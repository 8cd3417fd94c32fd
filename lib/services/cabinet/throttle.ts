import type { Db, Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { admitAttempt, releaseAttempt, type ThrottlePolicy, type ThrottleState } from "@/lib/domain/cabinet/throttle";

export type { ThrottlePolicy } from "@/lib/domain/cabinet/throttle";

// spec (issue): five wrong codes lock the account for a while. Passwords and codes count together.
export const ACCOUNT_POLICY: ThrottlePolicy = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
// An address guessing across many accounts: more room (offices share an address), same lock.
export const ADDRESS_POLICY: ThrottlePolicy = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/**
 * An account is keyed by its normalised e-mail, whether a user has it or not: an e-mail that names
 * nobody locks exactly as one that does, so a lock tells nothing about who has an account.
 */
export const accountKey = (normalizedEmail: string) => `account:${normalizedEmail}`;
export const addressKey = (ipAddress: string) => `address:${ipAddress || "unknown"}`;

/** Whose attempt it is: the account's and the address's keys count it. */
export interface AttemptSource {
  email: string;
  ipAddress: string;
}

function keysOf(source: AttemptSource): { key: string; policy: ThrottlePolicy; kind: "account" | "address" }[] {
  return [
    { key: accountKey(source.email), policy: ACCOUNT_POLICY, kind: "account" },
    { key: addressKey(source.ipAddress), policy: ADDRESS_POLICY, kind: "address" },
  ];
}

interface ThrottleRow {
  key: string;
  failures: number;
  window_started_at: Date;
  locked_until: Date | null;
}

const toState = (row: ThrottleRow): ThrottleState => ({ failures: row.failures, windowStartedAt: row.window_started_at, lockedUntil: row.locked_until });

/** The keys' rows, created when missing and locked in key order (two attempts on one key take turns). */
async function lockRows(tx: Tx, keys: string[], now: Date): Promise<Map<string, ThrottleState>> {
  const sorted = [...keys].sort();
  for (const key of sorted) {
    await tx.$executeRaw`INSERT INTO cabinet_throttles (key, failures, window_started_at, locked_until) VALUES (${key}, 0, ${now}, NULL) ON CONFLICT (key) DO NOTHING`;
  }
  const rows = await tx.$queryRaw<ThrottleRow[]>`
    SELECT key, failures, window_started_at, locked_until FROM cabinet_throttles WHERE key = ANY(${sorted}::text[]) ORDER BY key FOR UPDATE`;
  return new Map(rows.map((row) => [row.key, toState(row)]));
}

async function saveState(tx: Tx, key: string, state: ThrottleState): Promise<void> {
  await tx.$executeRaw`
    UPDATE cabinet_throttles SET failures = ${state.failures}, window_started_at = ${state.windowStartedAt}, locked_until = ${state.lockedUntil} WHERE key = ${key}`;
}

export type AttemptAdmission = { admitted: true; lockIfWrong: Date | null } | { admitted: false; lockedUntil: Date; lockedBy: "account" | "address" };

/**
 * Admits one attempt (a password, a code) before it is checked, counting it against the account
 * and the address in one transaction, or refuses it while either is locked (counting nothing).
 * `lockIfWrong` is the lock this attempt brings about should it turn out wrong.
 */
export async function takeAttempt(db: Db, source: AttemptSource, now: Date): Promise<AttemptAdmission> {
  return withTransaction(db, async (tx) => {
    const keys = keysOf(source);
    const states = await lockRows(
      tx,
      keys.map(({ key }) => key),
      now,
    );
    const admissions = keys.map(({ key, policy, kind }) => ({ key, kind, admission: admitAttempt(states.get(key)!, policy, now) }));
    const refused = admissions.find(({ admission }) => !admission.admitted);
    if (refused && !refused.admission.admitted) return { admitted: false, lockedUntil: refused.admission.lockedUntil, lockedBy: refused.kind } as const;
    let lockIfWrong: Date | null = null;
    for (const { key, admission } of admissions) {
      if (!admission.admitted) continue;
      await saveState(tx, key, admission.next);
      if (admission.lockIfWrong && (!lockIfWrong || admission.lockIfWrong > lockIfWrong)) lockIfWrong = admission.lockIfWrong;
    }
    return { admitted: true, lockIfWrong } as const;
  });
}

/** A right answer gives its attempt back to the account and the address. */
export async function giveAttemptBack(tx: Tx, source: AttemptSource, now: Date): Promise<void> {
  const keys = keysOf(source);
  const states = await lockRows(
    tx,
    keys.map(({ key }) => key),
    now,
  );
  for (const { key, policy } of keys) await saveState(tx, key, releaseAttempt(states.get(key)!, policy));
}

/** A completed sign-in forgets the account's failures — not the address's: others may be guessing from it. */
export async function forgetAccountFailures(tx: Tx, email: string): Promise<void> {
  await tx.cabinetThrottle.deleteMany({ where: { key: accountKey(email) } });
}

/** The latest lock among the keys still in force at `now`, or null (for steps that take no code). */
export async function activeLockUntil(db: Db | Tx, source: AttemptSource, now: Date): Promise<Date | null> {
  const keys = keysOf(source).map(({ key }) => key);
  const rows = await db.cabinetThrottle.findMany({ where: { key: { in: keys }, lockedUntil: { gt: now } }, select: { lockedUntil: true } });
  const times = rows.map((row) => row.lockedUntil!.getTime());
  return times.length === 0 ? null : new Date(Math.max(...times));
}
