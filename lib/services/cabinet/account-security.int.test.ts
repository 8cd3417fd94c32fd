import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { ENROLMENT_DEADLINE_MS } from "@/lib/domain/cabinet/enrolment-deadline";
import { runCabinetAction } from "@/lib/cabinet/run-action";
import { checkPassword, completeSignIn, confirmEnrolment } from "@/lib/cabinet/sign-in";
import { runUnit } from "@/lib/deps/unit-of-work";
import { PERIODIC_JOBS } from "@/lib/jobs/catalogue";
import { expireUnenrolledUsers } from "@/lib/jobs/handlers/expire-enrolments";
import { createStore, movingClock, newEmail, newStore, randomOrigin, refusalCodeOf, TEST_PASSWORD, type MovingClock } from "@/lib/testing/cabinet";
import { getTestDb, getTestSecretBox } from "@/lib/testing/harness";
import { PENDING_KEY_LIFETIME_MS } from "./authenticator-reset";
import { showEnrolmentKey } from "./enrolment";
import { openTotpSecret } from "./second-factor";
import { resolveSession, type CabinetActor } from "./sessions";
import { acceptInvitation, inviteMember, listTeam } from "./team";
import { insertCabinetUser, preparePassword } from "./users";

// Controls that hold when a session or a key is stolen: changing the password and replacing the
// authenticator (each behind the password and a fresh code) end every other session; "sign out
// everywhere" ends them all; an account never enrolled within 7 days can no longer get in.

const db = () => getTestDb();
const NEW_PASSWORD = "another long passphrase";

/** A signed-in owner (TOTP enrolled), the recovery codes of that enrolment, and an address of its own (failures here lock nobody else). */
async function enrolledOwner(clock: MovingClock) {
  const store = await createStore("Security shop");
  const from = randomOrigin();
  const ticket = await checkPassword(clock.deps, { email: store.ownerEmail, password: TEST_PASSWORD }, from);
  const { secret } = await showEnrolmentKey(clock.deps, ticket.token);
  const confirmed = await confirmEnrolment(clock.deps, { ticket: ticket.token, code: await clock.nextCode(secret) }, from);
  const actor = await completeSignIn(clock.deps, { ticket: confirmed.ticket.token, code: "" }, from);
  return { merchantId: store.merchantId, email: actor.email, actor, secret, recoveryCodes: confirmed.recoveryCodes, from };
}

/** Another browser signing in with the password and a code (a TOTP code of the next step unless given). */
async function signInAgain(clock: MovingClock, owner: { email: string; secret: string; from: { ipAddress: string; userAgent: string } }, code?: string, password = TEST_PASSWORD): Promise<CabinetActor> {
  const ticket = await checkPassword(clock.deps, { email: owner.email, password }, owner.from);
  return completeSignIn(clock.deps, { ticket: ticket.token, code: code ?? (await clock.nextCode(owner.secret)) }, owner.from);
}

/** Runs a cabinet action as the page does for `actor`, from `from`. */
function act(clock: MovingClock, actor: CabinetActor, from: { ipAddress: string; userAgent: string }, name: string, input: unknown, code?: string) {
  return runCabinetAction({ deps: clock.deps, actor, origin: from }, name, input, code);
}

const liveSessionIds = async (userId: string) => (await db().cabinetSession.findMany({ where: { userId }, select: { id: true } })).map((row) => row.id).sort();
const auditRows = (merchantId: string, action: string) => db().cabinetAuditEvent.findMany({ where: { merchantId, action }, orderBy: { createdAt: "asc" } });

describe("cabinet account security", () => {
  it("changes the password behind the current password and a fresh code, ends every other session, e-mails the user and audits it", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const laptop = await signInAgain(clock, owner);
    const phone = await signInAgain(clock, owner);
    const halfwaySignIn = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    const input = { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD };
    const hashBefore = (await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.actor.userId } })).passwordHash;

    // Refusals change nothing: no code, a wrong current password, a weak or unchanged new one.
    expect(await act(clock, owner.actor, owner.from, "password.change", input)).toMatchObject({ ok: false, code: "cabinet.code_required" });
    expect(await act(clock, owner.actor, owner.from, "password.change", { ...input, current_password: "not the password" }, await clock.nextCode(owner.secret))).toMatchObject({
      ok: false,
      code: "cabinet.wrong_password",
    });
    expect(await act(clock, owner.actor, owner.from, "password.change", { ...input, new_password: "short" }, await clock.nextCode(owner.secret))).toMatchObject({ ok: false, code: "cabinet.weak_password" });
    expect(await act(clock, owner.actor, owner.from, "password.change", { ...input, new_password: TEST_PASSWORD }, await clock.nextCode(owner.secret))).toMatchObject({
      ok: false,
      code: "cabinet.password_unchanged",
    });
    expect((await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.actor.userId } })).passwordHash).toBe(hashBefore);
    expect(await liveSessionIds(owner.actor.userId)).toEqual([owner.actor.sessionId, laptop.sessionId, phone.sessionId].sort());

    const changed = await act(clock, owner.actor, owner.from, "password.change", input, await clock.nextCode(owner.secret));
    expect(changed).toEqual({ ok: true, result: { ended_sessions: 2 } });

    // The other browsers are gone from the database; this one stays.
    expect(await liveSessionIds(owner.actor.userId)).toEqual([owner.actor.sessionId]);
    expect(await resolveSession(db(), laptop.sessionId, clock.deps.now())).toBeNull();
    expect(await resolveSession(db(), phone.sessionId, clock.deps.now())).toBeNull();
    expect(await resolveSession(db(), owner.actor.sessionId, clock.deps.now())).toMatchObject({ userId: owner.actor.userId });
    // A sign-in halfway through with the old password cannot finish; the old password opens nothing.
    expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: halfwaySignIn.token, code: await clock.nextCode(owner.secret) }, owner.from))).toBe("cabinet.bad_ticket");
    expect(await refusalCodeOf(checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from))).toBe("cabinet.bad_credentials");
    expect((await signInAgain(clock, owner, undefined, NEW_PASSWORD)).userId).toBe(owner.actor.userId);

    const audit = await auditRows(owner.merchantId, "password.changed");
    expect(audit.map((row) => [row.outcome, row.detail])).toEqual([
      ["refused", { reason: "cabinet.code_required" }],
      ["failure", { reason: "cabinet.wrong_password" }],
      ["success", { endedSessions: 2 }],
    ]);
    expect(JSON.stringify(await db().cabinetAuditEvent.findMany({ where: { merchantId: owner.merchantId } }))).not.toContain(NEW_PASSWORD);
    const mail = await db().outboundEmail.findMany({ where: { recipient: owner.email, subject: "Your Gateway password was changed" } });
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain(`from the address ${owner.from.ipAddress}`);
    expect(mail[0].text).not.toContain(NEW_PASSWORD);
  });

  it("counts wrong current passwords towards the sign-in lock", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await act(clock, owner.actor, owner.from, "password.change", { current_password: `wrong ${attempt}`, new_password: NEW_PASSWORD }, await clock.nextCode(owner.secret));
      answers.push(answer.ok ? "ok" : answer.code);
    }
    expect(answers).toEqual(["cabinet.wrong_password", "cabinet.wrong_password", "cabinet.wrong_password", "cabinet.wrong_password", "cabinet.locked"]);
  });

  it("replaces a lost authenticator after a sign-in with a recovery code: the old key works until a code from the new one is confirmed", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const oldSealed = (await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.actor.userId } })).totpSecretCiphertext;
    // The phone is lost: a new browser signs in with the password and a recovery code.
    const rescued = await signInAgain(clock, owner, owner.recoveryCodes[0]);
    const other = await signInAgain(clock, owner, owner.recoveryCodes[1]);

    // Behind a fresh code (here another recovery code) and the password.
    expect(await act(clock, rescued, owner.from, "two_factor.begin_reset", { password: TEST_PASSWORD })).toMatchObject({ ok: false, code: "cabinet.code_required" });
    expect(await act(clock, rescued, owner.from, "two_factor.begin_reset", { password: "not the password" }, owner.recoveryCodes[2])).toMatchObject({ ok: false, code: "cabinet.wrong_password" });
    const started = await act(clock, rescued, owner.from, "two_factor.begin_reset", { password: TEST_PASSWORD }, owner.recoveryCodes[3]);
    if (!started.ok) throw new Error(started.code);
    const { secret: newSecret, qr_data_url: qr } = started.result as { secret: string; qr_data_url: string };
    expect(newSecret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(newSecret).not.toBe(owner.secret);
    expect(qr).toMatch(/^data:image\/png;base64,/);

    // Nothing replaced yet: the user's key is the old one, and a wrong code changes nothing.
    expect((await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.actor.userId } })).totpSecretCiphertext).toBe(oldSealed);
    expect(await act(clock, rescued, owner.from, "two_factor.confirm_reset", { code: await generate({ secret: owner.secret, epoch: clock.nowSeconds() + 30 }) })).toMatchObject({
      ok: false,
      code: "cabinet.bad_code",
    });
    expect(openTotpSecret(getTestSecretBox(), await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.actor.userId } }))).toBe(owner.secret);
    // The new key belongs to the session that asked for it: another browser cannot confirm it.
    expect(await act(clock, other, owner.from, "two_factor.confirm_reset", { code: await generate({ secret: newSecret, epoch: clock.nowSeconds() }) })).toMatchObject({
      ok: false,
      code: "cabinet.no_pending_key",
    });

    const confirmed = await act(clock, rescued, owner.from, "two_factor.confirm_reset", { code: await clock.nextCode(newSecret) });
    if (!confirmed.ok) throw new Error(confirmed.code);
    const { recovery_codes: newCodes, ended_sessions: ended } = confirmed.result as { recovery_codes: string[]; ended_sessions: number };
    expect(newCodes).toHaveLength(10);
    expect(newCodes.some((code) => owner.recoveryCodes.includes(code))).toBe(false);
    expect(ended).toBe(2);
    expect(openTotpSecret(getTestSecretBox(), await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.actor.userId } }))).toBe(newSecret);
    // The first browser and the other are gone; the one that reset stays.
    expect(await liveSessionIds(owner.actor.userId)).toEqual([rescued.sessionId]);
    expect(await resolveSession(db(), owner.actor.sessionId, clock.deps.now())).toBeNull();
    // Only once.
    expect(await act(clock, rescued, owner.from, "two_factor.confirm_reset", { code: await clock.nextCode(newSecret) })).toMatchObject({ ok: false, code: "cabinet.no_pending_key" });

    // The old key's codes and the old recovery codes open nothing; the new ones do.
    const ticket = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, owner.from);
    expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: ticket.token, code: await clock.nextCode(owner.secret) }, owner.from))).toBe("cabinet.bad_code");
    expect(await refusalCodeOf(completeSignIn(clock.deps, { ticket: ticket.token, code: owner.recoveryCodes[4] }, owner.from))).toBe("cabinet.bad_code");
    expect((await completeSignIn(clock.deps, { ticket: ticket.token, code: await clock.nextCode(newSecret) }, owner.from)).userId).toBe(owner.actor.userId);
    expect((await signInAgain(clock, { ...owner, secret: newSecret }, newCodes[0])).userId).toBe(owner.actor.userId);

    expect((await auditRows(owner.merchantId, "two_factor.reset_started")).map((row) => row.outcome)).toEqual(["refused", "failure", "success"]);
    expect((await auditRows(owner.merchantId, "two_factor.reset")).map((row) => [row.outcome, row.detail])).toEqual([
      ["failure", { reason: "cabinet.bad_code" }],
      ["success", { endedSessions: 2 }],
    ]);
    expect(await db().outboundEmail.count({ where: { recipient: owner.email, subject: "Your Gateway authenticator app was replaced" } })).toBe(1);
  });

  it("lets a new key wait a quarter of an hour for its code, and no longer", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const started = await act(clock, owner.actor, owner.from, "two_factor.begin_reset", { password: TEST_PASSWORD }, await clock.nextCode(owner.secret));
    if (!started.ok) throw new Error(started.code);
    const { secret } = started.result as { secret: string };
    clock.advance(PENDING_KEY_LIFETIME_MS);
    expect(await act(clock, owner.actor, owner.from, "two_factor.confirm_reset", { code: await clock.nextCode(secret) })).toMatchObject({ ok: false, code: "cabinet.no_pending_key" });
    expect(openTotpSecret(getTestSecretBox(), await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.actor.userId } }))).toBe(owner.secret);
  });

  it("signs out everywhere, this browser included, behind a fresh code", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const others = [await signInAgain(clock, owner), await signInAgain(clock, owner)];
    const neighbour = await enrolledOwner(clock);

    expect(await act(clock, owner.actor, owner.from, "session.revoke_all", {})).toMatchObject({ ok: false, code: "cabinet.code_required" });
    expect(await act(clock, owner.actor, owner.from, "session.revoke_all", {}, "000000")).toMatchObject({ ok: false, code: "cabinet.bad_code" });
    expect(await liveSessionIds(owner.actor.userId)).toHaveLength(3);

    expect(await act(clock, owner.actor, owner.from, "session.revoke_all", {}, await clock.nextCode(owner.secret))).toEqual({ ok: true, result: { ended_sessions: 3 } });
    expect(await db().cabinetSession.count({ where: { userId: owner.actor.userId } })).toBe(0);
    for (const session of [owner.actor, ...others]) expect(await resolveSession(db(), session.sessionId, clock.deps.now())).toBeNull();
    // Another user's session is untouched.
    expect(await resolveSession(db(), neighbour.actor.sessionId, clock.deps.now())).not.toBeNull();
    expect((await auditRows(owner.merchantId, "session.revoked_all")).map((row) => [row.outcome, row.detail])).toEqual([
      ["refused", { reason: "cabinet.code_required" }],
      ["success", { endedSessions: 3 }],
    ]);
  });

  it("refuses sign-in and enrolment to an account not enrolled within 7 days, and lets an owner invite the address again", async () => {
    const clock = movingClock();
    const owner = await enrolledOwner(clock);
    const email = newEmail("late").toLowerCase();
    await runUnit(clock.deps, inviteMember, { actor: owner.actor, origin: owner.from, email, role: "finance" });
    const token = (await db().outboundEmail.findFirstOrThrow({ where: { recipient: email } })).text.match(/\/cabinet\/invite\/([A-Za-z0-9_-]+)/)![1];
    const joined = await runUnit(clock.deps, acceptInvitation, { token, password: TEST_PASSWORD, origin: owner.from });

    // Just before the deadline the password still leads to enrolment; the ticket does not outlive the deadline.
    clock.advance(ENROLMENT_DEADLINE_MS - 60_000);
    const ticket = await checkPassword(clock.deps, { email, password: TEST_PASSWORD }, owner.from);
    expect(ticket.purpose).toBe("enrol");
    const { secret } = await showEnrolmentKey(clock.deps, ticket.token);
    clock.advance(60_000);
    expect(await refusalCodeOf(showEnrolmentKey(clock.deps, ticket.token))).toBe("cabinet.enrolment_expired");
    expect(await refusalCodeOf(confirmEnrolment(clock.deps, { ticket: ticket.token, code: await clock.nextCode(secret) }, owner.from))).toBe("cabinet.enrolment_expired");
    expect(await refusalCodeOf(checkPassword(clock.deps, { email, password: TEST_PASSWORD }, owner.from))).toBe("cabinet.enrolment_expired");
    // Only the password's holder learns it: a wrong password answers as ever.
    expect(await refusalCodeOf(checkPassword(clock.deps, { email, password: "not the password" }, owner.from))).toBe("cabinet.bad_credentials");
    expect((await db().cabinetUser.findUniqueOrThrow({ where: { id: joined.userId } })).totpEnabledAt).toBeNull();
    expect((await listTeam(db(), owner.merchantId, clock.deps.now())).members.find((member) => member.id === joined.userId)).toMatchObject({ twoFactorEnabled: false, isEnrolmentExpired: true });
    expect((await auditRows(owner.merchantId, "sign_in.password")).filter((row) => row.userId === joined.userId).map((row) => [row.outcome, row.detail])).toEqual([
      ["success", { next: "enrol" }],
      ["refused", { reason: "cabinet.enrolment_expired" }],
      ["failure", { reason: "cabinet.bad_credentials" }],
    ]);

    // The owner invites the address again: accepting replaces the expired account, which then enrols.
    await runUnit(clock.deps, inviteMember, { actor: owner.actor, origin: owner.from, email, role: "viewer" });
    const again = (await db().outboundEmail.findFirstOrThrow({ where: { recipient: email }, orderBy: { createdAt: "desc" } })).text.match(/\/cabinet\/invite\/([A-Za-z0-9_-]+)/)![1];
    expect(again).not.toBe(token);
    const rejoined = await runUnit(clock.deps, acceptInvitation, { token: again, password: NEW_PASSWORD, origin: owner.from });
    expect(rejoined.userId).not.toBe(joined.userId);
    expect(await db().cabinetUser.findUnique({ where: { id: joined.userId } })).toBeNull();
    const fresh = await checkPassword(clock.deps, { email, password: NEW_PASSWORD }, owner.from);
    const key = await showEnrolmentKey(clock.deps, fresh.token);
    expect((await confirmEnrolment(clock.deps, { ticket: fresh.token, code: await clock.nextCode(key.secret) }, owner.from)).recoveryCodes).toHaveLength(10);

    // Enrolled, the address is a member again: inviting it is refused as for any member.
    expect(await refusalCodeOf(runUnit(clock.deps, inviteMember, { actor: owner.actor, origin: owner.from, email, role: "viewer" }))).toBe("cabinet.email_taken");
  });

  it("deletes accounts past the deadline in the periodic job, keeping enrolled ones and a store's only owner", async () => {
    const now = new Date();
    const past = new Date(now.getTime() - ENROLMENT_DEADLINE_MS - 60_000);
    const clock = movingClock();
    // A store whose owner enrolled: its late member and its late second owner go; a recent member stays.
    const store = await newStore(clock, "Expiring shop");
    const passwordHash = await preparePassword(TEST_PASSWORD);
    const late = await insertCabinetUser(db(), { merchantId: store.merchantId, email: newEmail("late"), passwordHash, role: "admin" }, past);
    const lateOwner = await insertCabinetUser(db(), { merchantId: store.merchantId, email: newEmail("late-owner"), passwordHash, role: "owner" }, past);
    const recent = await insertCabinetUser(db(), { merchantId: store.merchantId, email: newEmail("recent"), passwordHash, role: "viewer" }, now);
    // A store whose only owner never enrolled: kept (refused at sign-in) until the operator acts.
    const abandoned = await createStore("Abandoned shop");
    await db().cabinetUser.update({ where: { email: abandoned.ownerEmail.toLowerCase() }, data: { createdAt: past, enrolmentStartedAt: past } });
    await db().cabinetUser.update({ where: { id: store.owner.actor.userId }, data: { createdAt: past, enrolmentStartedAt: past } });

    const job = PERIODIC_JOBS.find((candidate) => candidate.name === "cabinet.expire-enrolment")!;
    expect(job.everySeconds).toBeLessThanOrEqual(3600);
    expect(await expireUnenrolledUsers({ db: db(), now: () => now })).toBeGreaterThanOrEqual(2);
    const remaining = await db().cabinetUser.findMany({ where: { merchantId: { in: [store.merchantId, abandoned.merchantId] } }, select: { id: true, email: true } });
    expect(remaining.map((user) => user.id).sort()).toEqual(
      [store.owner.actor.userId, recent.id, (await db().cabinetUser.findUniqueOrThrow({ where: { email: abandoned.ownerEmail.toLowerCase() } })).id].sort(),
    );
    expect([late.id, lateOwner.id].filter((id) => remaining.some((user) => user.id === id))).toEqual([]);
    const expiredAudit = await auditRows(store.merchantId, "team.enrolment_expired");
    expect(expiredAudit.map((row) => row.userId).sort()).toEqual([late.id, lateOwner.id].sort());
    expect(expiredAudit.find((row) => row.userId === late.id)?.detail).toMatchObject({ email: late.email, role: "admin" });
    // A second run finds nothing more of these stores.
    await expireUnenrolledUsers({ db: db(), now: () => now });
    expect(await db().cabinetUser.count({ where: { merchantId: { in: [store.merchantId, abandoned.merchantId] } } })).toBe(3);
  });
});
