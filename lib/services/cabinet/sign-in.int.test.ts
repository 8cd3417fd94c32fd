import { randomBytes, randomUUID, scrypt } from "node:crypto";
import { hashToken } from "@/lib/auth/one-time-tokens";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { createStore, movingClock, randomOrigin, refusalCodeOf, signInFirstTime, TEST_PASSWORD, type MovingClock } from "@/lib/testing/cabinet";
import { getTestDb } from "@/lib/testing/harness";
import { resolveSession, revokeSession } from "./sessions";
import { checkPassword, completeSignIn, confirmEnrolment, confirmFreshCode } from "@/lib/cabinet/sign-in";
import { showEnrolmentKey } from "./enrolment";
import { describeTicket } from "./sign-in";
import { withTransaction } from "@/lib/db/transaction";
import { accountAlertKey, accountFromAddressKey, accountKey, forgetAllAccountFailures } from "./throttle";

// Two-step sign-in: password → single-use ticket → TOTP or recovery code → session; enrolment on
// the first sign-in; codes taken once; failures locked out per account and per address.

async function newOwner() {
  const { merchantId, ownerEmail } = await createStore("Shop");
  return { email: ownerEmail, merchantId };
}

/** Signs a new owner in for the first time (password, enrolment confirmed with a code), each from an address of its own by default. */
async function enrolledOwner(clock: MovingClock, from = randomOrigin()) {
  const owner = await newOwner();
  const { actor, secret, recoveryCodes } = await signInFirstTime(clock, owner.email, from);
  return { ...owner, secret, recoveryCodes, actor, from };
}

describe("cabinet sign-in", () => {
  it("enrols TOTP on the first sign-in, then signs in with a code and with a recovery code", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    expect(owner.recoveryCodes).toHaveLength(10);
    expect(new Set(owner.recoveryCodes).size).toBe(10);
    expect(await resolveSession(getTestDb(), owner.actor.sessionId, clock.deps.now())).toMatchObject({ merchantId: owner.merchantId, role: "owner" });
    // Only hashes are stored.
    const stored = await getTestDb().cabinetRecoveryCode.findMany({ where: { user: { email: owner.email } } });
    expect(stored.map((row) => row.codeHash)).not.toContain(owner.recoveryCodes[0]);
    // Keyed with the master key: not even the plain SHA-256 of a code is in the database.
    expect(stored.map((row) => row.codeHash)).not.toContain(hashToken(owner.recoveryCodes[0]));

    clock.advance(30_000);
    const second = await checkPassword(clock.deps, { email: owner.email.toUpperCase(), password: TEST_PASSWORD }, owner.from);
    expect(second.purpose).toBe("code");
    const actor = await completeSignIn(clock.deps, { ticket: second.token, code: await generate({ secret: owner.secret, epoch: clock.nowSeconds() }) }, owner.from);
    expect(actor.userId).toBe(owner.actor.userId);
    // The ticket is single-use.
    expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: second.token, code: "000000" }, owner.from))).toBe("cabinet.bad_ticket");

    const third = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    await completeSignIn(clock.deps, { ticket: third.token, code: owner.recoveryCodes[3].toUpperCase().replace("-", " ") }, owner.from);
    const fourth = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: fourth.token, code: owner.recoveryCodes[3] }, owner.from))).toBe("cabinet.bad_code");

    const actions = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: owner.merchantId }, orderBy: { createdAt: "asc" } });
    expect(actions.map((event) => `${event.action}:${event.outcome}`)).toEqual(
      expect.arrayContaining(["sign_in.password:success", "two_factor.enrolled:success", "sign_in.code:success", "sign_in.recovery_code:success", "sign_in.code:failure"]),
    );
  });

  it("rehashes a password stored with weaker parameters at the next right password", async () => {
    const clock = movingClock();
    const owner = await newOwner();
    const legacy = await new Promise<string>((resolve, reject) => {
      const salt = randomBytes(16);
      scrypt(TEST_PASSWORD, salt, 32, { N: 16384, r: 8, p: 1 }, (error, hash) => (error ? reject(error) : resolve(["scrypt", 16384, 8, 1, salt.toString("base64url"), hash.toString("base64url")].join("$"))));
    });
    await getTestDb().cabinetUser.update({ where: { email: owner.email }, data: { passwordHash: legacy } });
    expect(await refusalCodeOf(checkPassword(clock.deps, { email: owner.email, password: "wrong" }, randomOrigin()))).toBe("cabinet.bad_credentials");
    expect((await getTestDb().cabinetUser.findUniqueOrThrow({ where: { email: owner.email } })).passwordHash).toBe(legacy);
    await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin());
    const rehashed = (await getTestDb().cabinetUser.findUniqueOrThrow({ where: { email: owner.email } })).passwordHash;
    expect(rehashed).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect((await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin())).purpose).toBe("enrol");
  });

  it("does not take a TOTP code twice, even from two racing sign-ins", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    clock.advance(30_000);
    const code = await generate({ secret: owner.secret, epoch: clock.nowSeconds() });
    const tickets = await Promise.all([1, 2, 3, 4].map(() => checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from)));
    const outcomes = await Promise.allSettled(tickets.map((ticket) => completeSignIn(clock.deps, { ticket: ticket.token, code }, owner.from)));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    // The code of the enrolment's own step is spent too.
    const enrolmentCode = await generate({ secret: owner.secret, epoch: clock.nowSeconds() - 30 });
    const late = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin());
    expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: late.token, code: enrolmentCode }, owner.from))).toBe("cabinet.bad_code");
  });

  it("slows the account down after five wrong codes from addresses it never signed in from, tells its user, and keeps its own address open", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const ticket = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    const refusals = [];
    for (let attempt = 0; attempt < 5; attempt++) refusals.push(await refusalCodeOf(completeSignIn(clock.deps, { ticket: ticket.token, code: "123456" }, randomOrigin())));
    expect(refusals).toEqual(["cabinet.bad_code", "cabinet.bad_code", "cabinet.bad_code", "cabinet.bad_code", "cabinet.locked"]);
    const told = await getTestDb().outboundEmail.findMany({ where: { recipient: owner.email, subject: "Failed sign-ins to your Gateway account" } });
    expect(told).toHaveLength(1);
    // From another unfamiliar address even the right password waits; from the owner's own it does not.
    expect(await refusalCodeOf(checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin()))).toBe("cabinet.locked");
    clock.advance(30_000);
    const own = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    const actor = await completeSignIn(clock.deps, { ticket: own.token, code: await generate({ secret: owner.secret, epoch: clock.nowSeconds() }) }, owner.from);
    expect(actor.merchantId).toBe(owner.merchantId);
    const locks = await getTestDb().cabinetAuditEvent.count({ where: { merchantId: owner.merchantId, action: "sign_in.locked" } });
    expect(locks).toBeGreaterThanOrEqual(2);
  });

  it("tells the user of wrong passwords from an address it signed in from (a shared NAT), once a day, without slowing the account down", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const subject = "Failed sign-ins to your Gateway account";
    const told = () => getTestDb().outboundEmail.count({ where: { recipient: owner.email, subject } });
    const guess = (from = owner.from) => refusalCodeOf(checkPassword(clock.deps, { email: owner.email, password: "a guess" }, from));
    // Someone behind the owner's own address guesses: that address's own lock stops them after five.
    const refusals = [];
    for (let attempt = 0; attempt < 5; attempt++) refusals.push(await guess());
    expect(refusals).toEqual(["cabinet.bad_credentials", "cabinet.bad_credentials", "cabinet.bad_credentials", "cabinet.bad_credentials", "cabinet.locked"]);
    expect(await told()).toBe(1);
    // The account is not slowed down: from an address it never signed in from, the right password still works.
    expect((await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin())).purpose).toBe("code");
    // Further failures within the day, from the same address once its lock ran out or from others, send no second e-mail.
    clock.advance(15 * 60_000);
    for (let attempt = 0; attempt < 4; attempt++) expect(await guess()).toBe("cabinet.bad_credentials");
    expect(await guess(randomOrigin())).toBe("cabinet.bad_credentials");
    expect(await told()).toBe(1);
    // A day later it counts anew: five more failures, one more e-mail.
    clock.advance(24 * 3600_000);
    for (let attempt = 0; attempt < 5; attempt++) await guess();
    expect(await told()).toBe(2);
  });

  it("slows unfamiliar addresses down more with each further failure, up to half an hour", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const waits: number[] = [];
    for (let attempt = 0; attempt < 9; attempt++) {
      const started = clock.deps.now().getTime();
      const answer = await refusalCodeOf(checkPassword(clock.deps, { email: owner.email, password: "wrong" }, randomOrigin()));
      if (answer === "cabinet.locked") {
        const lock = await getTestDb().cabinetThrottle.findUniqueOrThrow({ where: { key: `account:${owner.email}` } });
        waits.push(Math.round((lock.lockedUntil!.getTime() - started) / 1000));
        clock.advance(lock.lockedUntil!.getTime() - clock.deps.now().getTime());
      }
    }
    expect(waits).toEqual([30, 60, 120, 240, 480]);
  });

  it("counts wrong passwords per address across accounts, and answers an unknown e-mail like a wrong password", async () => {
    const clock = movingClock();
    const from = randomOrigin();
    const owner = await newOwner();
    expect(await refusalCodeOf(checkPassword(clock.deps, { email: `nobody-${randomUUID()}@example.com`, password: TEST_PASSWORD }, from))).toBe("cabinet.bad_credentials");
    const refusals = [];
    for (let attempt = 0; attempt < 19; attempt++) {
      refusals.push(await refusalCodeOf(checkPassword(clock.deps, { email: `nobody-${attempt}-${randomUUID()}@example.com`, password: "wrong" }, from)));
    }
    // The twentieth, wrong, locks the address, and says so.
    expect(refusals.slice(0, 18).every((code) => code === "cabinet.bad_credentials")).toBe(true);
    expect(refusals.at(-1)).toBe("cabinet.locked");
    // The address is now locked for everyone, the owner's account is not.
    expect(await refusalCodeOf(checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, from))).toBe("cabinet.locked");
    expect((await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin())).purpose).toBe("enrol");
  });

  it("shares no key among visitors whose address is unknown: a flood of wrong passwords locks none but the accounts guessed", async () => {
    const clock = movingClock();
    const owner = await newOwner();
    const unknown = { ipAddress: "", userAgent: "flood" };
    for (let attempt = 0; attempt < 25; attempt++) {
      expect(await refusalCodeOf(checkPassword(clock.deps, { email: `nobody-${attempt}-${randomUUID()}@example.com`, password: "wrong" }, unknown))).toBe("cabinet.bad_credentials");
    }
    expect((await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, { ipAddress: "", userAgent: "another visitor" })).purpose).toBe("enrol");
  });

  it("counts guesses sent all at once one by one: five are checked, the rest refused, and then the right code too", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const ticket = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    clock.advance(30_000);
    const current = new Set(await Promise.all([-1, 0, 1].map((offset) => generate({ secret: owner.secret, epoch: clock.nowSeconds() + offset * 30 }))));
    const guesses = Array.from({ length: 25 }, (_, index) => String(100_000 + index * 7919)).filter((guess) => !current.has(guess));
    const answers = await Promise.all(guesses.map((code) => refusalCodeOf(completeSignIn(clock.deps, { ticket: ticket.token, code }, randomOrigin()))));
    expect(answers.filter((code) => code === "cabinet.bad_code")).toHaveLength(4);
    expect(answers.filter((code) => code === "cabinet.locked")).toHaveLength(guesses.length - 4);
    const checked = await getTestDb().cabinetAuditEvent.count({ where: { userId: owner.actor.userId, action: "sign_in.code", outcome: "failure" } });
    expect(checked).toBe(5);
    const goodCode = await generate({ secret: owner.secret, epoch: clock.nowSeconds() });
    // The guesser's addresses wait, even with the right code; the owner's own does not.
    expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: ticket.token, code: goodCode }, randomOrigin()))).toBe("cabinet.locked");
    expect((await completeSignIn(clock.deps, { ticket: ticket.token, code: goodCode }, owner.from)).userId).toBe(owner.actor.userId);
  });

  it("locks an e-mail that names nobody exactly as one that does: a lock tells nothing about who has an account", async () => {
    const clock = movingClock();
    const owner = await newOwner();
    for (const email of [owner.email, `nobody-${randomUUID()}@example.com`]) {
      const answers = [];
      for (let attempt = 0; attempt < 6; attempt++) answers.push(await refusalCodeOf(checkPassword(clock.deps, { email, password: "not the password" }, randomOrigin())));
      expect(answers, email).toEqual(["cabinet.bad_credentials", "cabinet.bad_credentials", "cabinet.bad_credentials", "cabinet.bad_credentials", "cabinet.locked", "cabinet.locked"]);
    }
    // A NUL character names nobody too, rather than failing in the database.
    expect(await refusalCodeOf(checkPassword(clock.deps, { email: "a\u0000b@example.com", password: "x" }, randomOrigin()))).toBe("cabinet.bad_credentials");
  });

  it("a right password gives its attempt back, so five wrong codes still lock and four do not", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    for (let round = 0; round < 3; round++) await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    const ticket = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    for (let attempt = 0; attempt < 4; attempt++) expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: ticket.token, code: "12345x" }, owner.from))).toBe("cabinet.bad_code");
    clock.advance(30_000);
    const actor = await completeSignIn(clock.deps, { ticket: ticket.token, code: await generate({ secret: owner.secret, epoch: clock.nowSeconds() }) }, owner.from);
    expect(actor.userId).toBe(owner.actor.userId);
  });

  it("shows each enrolment ticket a key of its own, the same on every reload: a second holder of the password never sees the key the user scans", async () => {
    const clock = movingClock();
    const owner = await newOwner();
    const user = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin());
    const intruder = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin());
    const [usersKey, again, intrudersKey] = [await showEnrolmentKey(clock.deps, user.token), await showEnrolmentKey(clock.deps, user.token), await showEnrolmentKey(clock.deps, intruder.token)];
    expect(again.secret).toBe(usersKey.secret);
    expect(intrudersKey.secret).not.toBe(usersKey.secret);
    // A code of another ticket's key does not enrol this one.
    expect(await refusalCodeOf(confirmEnrolment(clock.deps, { ticket: user.token, code: await clock.nextCode(intrudersKey.secret) }, randomOrigin()))).toBe("cabinet.bad_code");
    const confirmed = await confirmEnrolment(clock.deps, { ticket: user.token, code: await clock.nextCode(usersKey.secret) }, randomOrigin());
    expect(confirmed.recoveryCodes).toHaveLength(10);
    // The intruder's ticket is dead, and its key was never the user's.
    expect(await refusalCodeOf(showEnrolmentKey(clock.deps, intruder.token))).toBe("cabinet.bad_ticket");
    const later = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin());
    clock.advance(30_000);
    expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: later.token, code: await generate({ secret: intrudersKey.secret, epoch: clock.nowSeconds() }) }, randomOrigin()))).toBe("cabinet.bad_code");
    expect((await completeSignIn(clock.deps, { ticket: later.token, code: await generate({ secret: usersKey.secret, epoch: clock.nowSeconds() }) }, randomOrigin())).merchantId).toBe(owner.merchantId);
  });

  it("an enrolment ticket dies once its user has enrolled with another: it never shows the key in use", async () => {
    const clock = movingClock();
    const owner = await newOwner();
    const spare = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, randomOrigin());
    expect(spare.purpose).toBe("enrol");
    await signInFirstTime(clock, owner.email, randomOrigin());
    expect(await refusalCodeOf(showEnrolmentKey(clock.deps, spare.token))).toBe("cabinet.bad_ticket");
    expect(await describeTicket(getTestDb(), spare.token, clock.deps.now())).toBeNull();
  });

  it("asks sensitive actions for a fresh code and refuses a missing, wrong or reused one", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    expect(await refusalCodeOf(confirmFreshCode(clock.deps, owner.actor, undefined, "api_key.rotated", owner.from))).toBe("cabinet.code_required");
    expect(await refusalCodeOf(confirmFreshCode(clock.deps, owner.actor, "999999", "api_key.rotated", owner.from))).toBe("cabinet.bad_code");
    clock.advance(30_000);
    const code = await generate({ secret: owner.secret, epoch: clock.nowSeconds() });
    await confirmFreshCode(clock.deps, owner.actor, code, "api_key.rotated", owner.from);
    expect(await refusalCodeOf(confirmFreshCode(clock.deps, owner.actor, code, "api_key.rotated", owner.from))).toBe("cabinet.bad_code");
    const events = await getTestDb().cabinetAuditEvent.findMany({ where: { userId: owner.actor.userId, action: { in: ["api_key.rotated", "step_up"] } } });
    expect(events.map((event) => `${event.action}:${event.outcome}`).sort()).toEqual(["api_key.rotated:refused", "step_up:failure", "step_up:failure", "step_up:success"]);
  });

  it("ends a revoked session at once", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    expect(await revokeSession(getTestDb(), owner.actor.userId, owner.actor.sessionId, clock.deps.now())).toBe(true);
    expect(await resolveSession(getTestDb(), owner.actor.sessionId, clock.deps.now())).toBeNull();
  });
});

describe("forgetting an account's failures", () => {
  it("forgets only that account's: an address with _ or % matches no other account's keys", async () => {
    const db = getTestDb();
    const tag = randomUUID().slice(0, 8);
    const reset = `john_doe-${tag}@x.test`;
    const lookalike = `johnXdoe-${tag}@x.test`;
    const now = new Date();
    const keysOf = (email: string) => [accountKey(email), accountAlertKey(email), accountFromAddressKey(email, "203.0.113.9")];
    await db.cabinetThrottle.createMany({ data: [...keysOf(reset), ...keysOf(lookalike)].map((key) => ({ key, failures: 3, windowStartedAt: now })) });

    await withTransaction(db, (tx) => forgetAllAccountFailures(tx, reset));

    const left = await db.cabinetThrottle.findMany({ where: { key: { in: [...keysOf(reset), ...keysOf(lookalike)] } }, select: { key: true } });
    expect(left.map((row) => row.key).sort()).toEqual(keysOf(lookalike).sort());
  });
});
