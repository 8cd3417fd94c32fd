import { describe, expect, it } from "vitest";
import { admitAttempt, releaseAttempt, type ThrottlePolicy, type ThrottleState } from "./throttle";

const policy: ThrottlePolicy = { maxFailures: 3, windowMs: 60_000, lockMs: 300_000 };
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);

function admitted(state: ThrottleState | null, now: Date) {
  const admission = admitAttempt(state, policy, now);
  if (!admission.admitted) throw new Error("refused");
  return admission;
}

describe("attempt throttling", () => {
  it("counts each attempt as it is admitted; the last allowed one would lock if wrong; the next is refused", () => {
    const first = admitted(null, at(0));
    expect(first).toMatchObject({ next: { failures: 1, windowStartedAt: at(0), lockedUntil: null }, lockIfWrong: null });
    const second = admitted(first.next, at(1));
    expect(second.next.failures).toBe(2);
    const third = admitted(second.next, at(2));
    expect(third.lockIfWrong).toEqual(at(302));
    expect(third.next).toEqual({ failures: 3, windowStartedAt: at(0), lockedUntil: at(302) });
    expect(admitAttempt(third.next, policy, at(3))).toEqual({ admitted: false, lockedUntil: at(302) });
    // Once the lock is over, counting starts again.
    expect(admitted(third.next, at(302))).toMatchObject({ next: { failures: 1, windowStartedAt: at(302), lockedUntil: null } });
  });

  it("starts a new window when the old one is over", () => {
    const first = admitted(null, at(0));
    const second = admitted(first.next, at(30));
    expect(admitted(second.next, at(60)).next).toEqual({ failures: 1, windowStartedAt: at(60), lockedUntil: null });
  });

  it("gives a right answer's attempt back, lifting the lock that attempt would have set", () => {
    const first = admitted(null, at(0));
    const second = admitted(first.next, at(1));
    const third = admitted(second.next, at(2));
    expect(releaseAttempt(third.next, policy)).toEqual({ failures: 2, windowStartedAt: at(0), lockedUntil: null });
    expect(releaseAttempt({ failures: 0, windowStartedAt: at(0), lockedUntil: null }, policy).failures).toBe(0);
  });
});

describe("a growing lock", () => {
  const growing: ThrottlePolicy = { maxFailures: 3, windowMs: 3_600_000, lockMs: 30_000, maxLockMs: 120_000 };

  it("doubles with each failure after the last allowed one, up to its ceiling; one attempt per lock", () => {
    let state: ThrottleState | null = null;
    let now = at(0);
    const locks: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const admission = admitAttempt(state, growing, now);
      if (!admission.admitted) throw new Error("refused");
      if (admission.lockIfWrong) locks.push((admission.lockIfWrong.getTime() - now.getTime()) / 1000);
      // Refused while locked, without counting.
      if (admission.next.lockedUntil) expect(admitAttempt(admission.next, growing, new Date(admission.next.lockedUntil.getTime() - 1))).toMatchObject({ admitted: false });
      state = admission.next;
      now = admission.next.lockedUntil ?? new Date(now.getTime() + 1000);
    }
    expect(locks).toEqual([30, 60, 120, 120, 120]);
  });
});
