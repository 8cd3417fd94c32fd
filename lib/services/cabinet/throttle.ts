import type { Db, Tx } from "@/lib/db/client";
import { admitAttempt, releaseAttempt, type ThrottlePolicy, type ThrottleState } from "@/lib/domain/cabinet/throttle";

export type { ThrottlePolicy } from "@/lib/domain/cabinet/throttle";

/**
 * Passwords and codes count together, against three keys that lock:
 * - the account from this address: five wrong lock them for 15 minutes;
 * - the account from every address it has not signed in from lately (distributed guessing):
 *   five wrong slow it down — 30 seconds, doubling per further failure up to 30 minutes, within a
 *   day. An address the user signed in from within 30 days is not held back by it, so nobody
 *   keeps an owner out (approvals included) by failing on purpose;
 * - the address across accounts, when it is known: twenty wrong lock it for 15 minutes (offices
 *   share an address). Visitors whose address is unknown share no key.
 * and one that only counts, for the user's alert: every failure on the account, from any address
 * — a known one too, since whoever shares it (a NAT, an office) may be guessing — and at the fifth
 * within a day the user is e-mailed, once per day of attempts.
 */
export const ACCOUNT_FROM_ADDRESS_POLICY: ThrottlePolicy = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const ACCOUNT_POLICY: ThrottlePolicy = { maxFailures: 5, windowMs: 24 * 3600_000, lockMs: 30_000, maxLockMs: 30 * 60_000 };
export const ADDRESS_POLICY: ThrottlePolicy = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** The alert's count: as many failures in as long as the account's delay, and it never locks. */
export const ACCOUNT_ALERT_POLICY: ThrottlePolicy = { maxFailures: ACCOUNT_POLICY.maxFailures, windowMs: ACCOUNT_POLICY.windowMs, lockMs: 0 };
/** How long a successful sign-in makes its address known to the account. */
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;

/**
 * An account is keyed by its normalised e-mail, whether a user has it or not: an e-mail that names
 * nobody locks exactly as one that does, so a lock tells nothing about who has an account.
 */
export const accountKey = (normalizedEmail: string) => `account:${normalizedEmail}`;
export const accountFromAddressKey = (normalizedEmail: string, ipAddress: string) => `account:${normalizedEmail}|address:${ipAddress}`;
export const addressKey = (ipAddress: string) => `address:${ipAddress}`;
// A prefix of its own: an e-mail may hold a "|", so no e-mail's account key can be another's alert key.
export const accountAlertKey = (normalizedEmail: string) => `account-alert:${normalizedEmail}`;

/** Whose attempt it is, and whether its address is one the account signed in from lately. */
export interface AttemptSource {
  email: string;
  ipAddress: string;
  isKnownAddress: boolean;
}

type ThrottleKind = "account" | "account_from_address" | "address" | "account_alert";

interface ThrottleKey {
  key: string;
  policy: ThrottlePolicy;
  kind: ThrottleKind;
}

/** The keys that lock, then the alert's count. */
function keysOf(source: AttemptSource): ThrottleKey[] {
  const alert: ThrottleKey = { key: accountAlertKey(source.email), policy: ACCOUNT_ALERT_POLICY, kind: "account_alert" };
  // Without an address nothing tells the user from anyone else: only the account's growing delay applies.
  if (!source.ipAddress) return [{ key: accountKey(source.email), policy: ACCOUNT_POLICY, kind: "account" }, alert];
  const keys: ThrottleKey[] = [
    { key: accountFromAddressKey(source.email, source.ipAddress), policy: ACCOUNT_FROM_ADDRESS_POLICY, kind: "account_from_address" },
    { key: addressKey(source.ipAddress), policy: ADDRESS_POLICY, kind: "address" },
  ];
  if (!source.isKnownAddress) keys.push({ key: accountKey(source.email), policy: ACCOUNT_POLICY, kind: "account" });
  return [...keys, alert];
}

/** Only counts: never refuses an attempt and never locks (the alert's key). */
const isCountOnly = (kind: ThrottleKind) => kind === "account_alert";

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
  /** `alertsUserIfWrong`: a wrong answer would be the account's fifth failure of the day, from any address: its user is told then. */
  | { admitted: true; lockIfWrong: Date | null; alertsUserIfWrong: boolean }
  | { admitted: false; lockedUntil: Date; lockedBy: ThrottleKind };

/**
 * Admits one attempt (a password, a code) before it is checked, counting it against the account
 * and the address, or refuses it while either is locked (counting nothing). Its transaction
 * commits the count before the attempt is checked. `lockIfWrong` is the lock this attempt brings
 * about should it turn out wrong.
 */
export async function takeAttempt(tx: Tx, source: AttemptSource, now: Date): Promise<AttemptAdmission> {
  const keys = keysOf(source);
  const states = await lockRows(
    tx,
    keys.map(({ key }) => key),
    now,
  );
  const admissions = keys.map(({ key, policy, kind }) => {
    const state = states.get(key)!;
    // A count-only key is never locked, whatever its row says.
    return { key, kind, policy, admission: admitAttempt(isCountOnly(kind) ? { ...state, lockedUntil: null } : state, policy, now) };
  });
  const refused = admissions.find(({ admission }) => !admission.admitted);
  if (refused && !refused.admission.admitted) return { admitted: false, lockedUntil: refused.admission.lockedUntil, lockedBy: refused.kind } as const;
  let lockIfWrong: Date | null = null;
  let alertsUserIfWrong = false;
  for (const { key, kind, policy, admission } of admissions) {
    if (!admission.admitted) continue;
    if (isCountOnly(kind)) {
      await saveState(tx, key, { ...admission.next, lockedUntil: null });
      // The fifth of its window, and only the fifth: once per day of attempts.
      if (admission.next.failures === policy.maxFailures) alertsUserIfWrong = true;
      continue;
    }
    await saveState(tx, key, admission.next);
    if (admission.lockIfWrong && (!lockIfWrong || admission.lockIfWrong > lockIfWrong)) lockIfWrong = admission.lockIfWrong;
  }
  return { admitted: true, lockIfWrong, alertsUserIfWrong } as const;
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

/** A completed sign-in forgets the account's failures (the alert's count too) — not the address's: others may be guessing from it. */
export async function forgetAccountFailures(tx: Tx, email: string, ipAddress: string): Promise<void> {
  await tx.cabinetThrottle.deleteMany({ where: { key: { in: [accountKey(email), accountAlertKey(email), accountFromAddressKey(email, ipAddress)] } } });
}

/** Forgets every count of the account, from every address (the operator reset its sign-in); the addresses' own counts stay. */
export async function forgetAllAccountFailures(tx: Tx, email: string): Promise<void> {
  await tx.cabinetThrottle.deleteMany({ where: { key: { in: [accountKey(email), accountAlertKey(email)] } } });
  // starts_with, not Prisma's startsWith: that is a LIKE whose _ and % in an address match other accounts' keys.
  await tx.$executeRaw`DELETE FROM cabinet_throttles WHERE starts_with(key, ${`${accountKey(email)}|address:`})`;
}

/** The latest lock among the keys still in force at `now`, or null (for steps that take no code). */
export async function activeLockUntil(db: Db | Tx, source: AttemptSource, now: Date): Promise<Date | null> {
  const keys = keysOf(source)
    .filter(({ kind }) => !isCountOnly(kind))
    .map(({ key }) => key);
  const rows = await db.cabinetThrottle.findMany({ where: { key: { in: keys }, lockedUntil: { gt: now } }, select: { lockedUntil: true } });
  const times = rows.map((row) => row.lockedUntil!.getTime());
  return times.length === 0 ? null : new Date(Math.max(...times));
}
