import type { Db, Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { admitAttempt, releaseAttempt, type ThrottlePolicy, type ThrottleState } from "@/lib/domain/cabinet/throttle";

export type { ThrottlePolicy } from "@/lib/domain/cabinet/throttle";

/**
 * Passwords and codes count together, against three keys:
 * - the account from this address: five wrong lock them for 15 minutes;
 * - the account from every address it has not signed in from lately (distributed guessing):
 *   five wrong slow it down — 30 seconds, doubling per further failure up to 30 minutes, within a
 *   day — and its user is told. An address the user signed in from within 30 days is not held
 *   back by it, so nobody keeps an owner out (approvals included) by failing on purpose;
 * - the address across accounts, when it is known: twenty wrong lock it for 15 minutes (offices
 *   share an address). Visitors whose address is unknown share no key.
 */
export const ACCOUNT_FROM_ADDRESS_POLICY: ThrottlePolicy = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const ACCOUNT_POLICY: ThrottlePolicy = { maxFailures: 5, windowMs: 24 * 3600_000, lockMs: 30_000, maxLockMs: 30 * 60_000 };
export const ADDRESS_POLICY: ThrottlePolicy = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** How long a successful sign-in makes its address known to the account. */
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;

/**
 * An account is keyed by its normalised e-mail, whether a user has it or not: an e-mail that names
 * nobody locks exactly as one that does, so a lock tells nothing about who has an account.
 */
export const accountKey = (normalizedEmail: string) => `account:${normalizedEmail}`;
export const accountFromAddressKey = (normalizedEmail: string, ipAddress: string) => `account:${normalizedEmail}|address:${ipAddress}`;
export const addressKey = (ipAddress: string) => `address:${ipAddress}`;

/** Whose attempt it is, and whether its address is one the account signed in from lately. */
export interface AttemptSource {
  email: string;
  ipAddress: string;
  isKnownAddress: boolean;
}

type ThrottleKind = "account" | "account_from_address" | "address";

function keysOf(source: AttemptSource): { key: string; policy: ThrottlePolicy; kind: ThrottleKind }[] {
  // Without an address nothing tells the user from anyone else: only the account's growing delay applies.
  if (!source.ipAddress) return [{ key: accountKey(source.email), policy: ACCOUNT_POLICY, kind: "account" }];
  const keys: { key: string; policy: ThrottlePolicy; kind: ThrottleKind }[] = [
    { key: accountFromAddressKey(source.email, source.ipAddress), policy: ACCOUNT_FROM_ADDRESS_POLICY, kind: "account_from_address" },
    { key: addressKey(source.ipAddress), policy: ADDRESS_POLICY, kind: "address" },
  ];
  if (!source.isKnownAddress) keys.push({ key: accountKey(source.email), policy: ACCOUNT_POLICY, kind: "account" });
  return keys;
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

export type AttemptAdmission =
  /** `slowsAccountIfWrong`: a wrong answer would start slowing the whole account down (its user is told then). */
  | { admitted: true; lockIfWrong: Date | null; slowsAccountIfWrong: boolean }
  | { admitted: false; lockedUntil: Date; lockedBy: ThrottleKind };

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
    let slowsAccountIfWrong = false;
    for (const { key, kind, policy, admission } of admissions.map((entry, index) => ({ ...entry, policy: keys[index].policy }))) {
      if (!admission.admitted) continue;
      await saveState(tx, key, admission.next);
      if (admission.lockIfWrong && (!lockIfWrong || admission.lockIfWrong > lockIfWrong)) lockIfWrong = admission.lockIfWrong;
      if (kind === "account" && admission.next.failures === policy.maxFailures) slowsAccountIfWrong = true;
    }
    return { admitted: true, lockIfWrong, slowsAccountIfWrong } as const;
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
export async function forgetAccountFailures(tx: Tx, email: string, ipAddress: string): Promise<void> {
  await tx.cabinetThrottle.deleteMany({ where: { key: { in: [accountKey(email), accountFromAddressKey(email, ipAddress)] } } });
}

/** Forgets every count of the account, from every address (the operator reset its sign-in); the addresses' own counts stay. */
export async function forgetAllAccountFailures(tx: Tx, email: string): Promise<void> {
  await tx.cabinetThrottle.deleteMany({ where: { OR: [{ key: accountKey(email) }, { key: { startsWith: `${accountKey(email)}|address:` } }] } });
}

/** The latest lock among the keys still in force at `now`, or null (for steps that take no code). */
export async function activeLockUntil(db: Db | Tx, source: AttemptSource, now: Date): Promise<Date | null> {
  const keys = keysOf(source).map(({ key }) => key);
  const rows = await db.cabinetThrottle.findMany({ where: { key: { in: keys }, lockedUntil: { gt: now } }, select: { lockedUntil: true } });
  const times = rows.map((row) => row.lockedUntil!.getTime());
  return times.length === 0 ? null : new Date(Math.max(...times));
}
