/**
 * Attempt throttling as pure transitions. An attempt is counted when it is admitted, before the
 * password or code is checked, so guesses sent all at once are counted one by one and no more than
 * the policy's number are ever checked in a window; a right answer gives its attempt back.
 */

/**
 * How many attempts in how long lock a key, and for how long: `lockMs` at the last allowed
 * failure, doubled for each further one in the same window (one attempt per lock), up to
 * `maxLockMs` — a growing delay rather than a wall.
 */
export interface ThrottlePolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
  maxLockMs?: number;
}

/** The lock the `failures`-th failure of a window brings about (none below the policy's number). */
export function lockAfter(failures: number, policy: ThrottlePolicy): number | null {
  if (failures < policy.maxFailures) return null;
  const grown = policy.lockMs * 2 ** Math.min(failures - policy.maxFailures, 30);
  return Math.min(grown, policy.maxLockMs ?? policy.lockMs);
}

export interface ThrottleState {
  failures: number;
  windowStartedAt: Date;
  lockedUntil: Date | null;
}

export type Admission =
  /** Go ahead; `lockIfWrong` is the lock this attempt brings about if it turns out wrong. */
  | { admitted: true; next: ThrottleState; lockIfWrong: Date | null }
  | { admitted: false; lockedUntil: Date };

/** Admits one attempt against a key (its state, or null for a key never tried), counting it. */
export function admitAttempt(state: ThrottleState | null, policy: ThrottlePolicy, now: Date): Admission {
  if (state?.lockedUntil && state.lockedUntil > now) return { admitted: false, lockedUntil: state.lockedUntil };
  const isWindowOpen = state !== null && state.windowStartedAt.getTime() > now.getTime() - policy.windowMs;
  const failures = isWindowOpen ? state.failures + 1 : 1;
  const windowStartedAt = isWindowOpen ? state.windowStartedAt : now;
  const lockMs = lockAfter(failures, policy);
  const lockIfWrong = lockMs === null ? null : new Date(now.getTime() + lockMs);
  return { admitted: true, next: { failures, windowStartedAt, lockedUntil: lockIfWrong }, lockIfWrong };
}

/** Gives back the attempt of a right answer: one failure less, and the lock it set, if any, lifted. */
export function releaseAttempt(state: ThrottleState, policy: ThrottlePolicy): ThrottleState {
  const failures = Math.max(0, state.failures - 1);
  return { ...state, failures, lockedUntil: failures < policy.maxFailures ? null : state.lockedUntil };
}
