import { describe, expect, it } from "vitest";
import { ENROLMENT_DEADLINE_MS } from "@/lib/domain/cabinet/enrolment-deadline";
import { checkPassword, completeSignIn, confirmEnrolment } from "@/lib/cabinet/sign-in";
import { showEnrolmentKey } from "@/lib/services/cabinet/enrolment";
import { resolveSession } from "@/lib/services/cabinet/sessions";
import { createStore, movingClock, newStore, randomOrigin, refusalCodeOf, signInFirstTime, TEST_PASSWORD } from "@/lib/testing/cabinet";
import { getTestDb } from "@/lib/testing/harness";
import { cliActor } from "./lookups";
import { runCli } from "./testing/cli-process";

// `user reset`: the operator's way back in for a cabinet user who lost the authenticator and the
// recovery codes, or whose enrolment ran out: sessions end, the second factor is cleared so the
// next sign-in enrols again (with a fresh 7 days), optionally a new password, audited and e-mailed.

const db = () => getTestDb();

describe("operator CLI: user reset", () => {
  it("ends the sessions and clears the second factor of an enrolled user, who enrols again at the next sign-in", { timeout: 240_000 }, async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Reset shop");
    const owner = store.owner.actor;
    const from = randomOrigin();
    // A second browser, signed in with a code.
    const ticket = await checkPassword(clock.deps, { email: owner.email, password: TEST_PASSWORD }, from);
    const other = await completeSignIn(clock.deps, { ticket: ticket.token, code: await clock.nextCode(store.owner.secret) }, from);
    const before = await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.userId } });

    const reset = await runCli(["user", "reset", "--email", owner.email.toUpperCase(), "--keep-password", "--json"]);
    expect(reset.status, reset.stderr).toBe(0);
    expect(reset.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(reset.json).toEqual({
      user_id: owner.userId,
      merchant_id: store.merchantId,
      email: owner.email,
      role: "owner",
      ended_sessions: 2,
      password: null,
      enrol_by: expect.any(String),
    });
    const enrolBy = new Date(reset.json.enrol_by).getTime();
    expect(Math.abs(enrolBy - (Date.now() + ENROLMENT_DEADLINE_MS))).toBeLessThan(120_000);

    // Every session is gone; the key and the recovery codes with them.
    for (const session of [owner, other]) expect(await resolveSession(db(), session.sessionId, clock.deps.now())).toBeNull();
    const after = await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.userId } });
    expect(after).toMatchObject({ totpEnabledAt: null, totpSecretCiphertext: null, lastTotpStep: null, passwordHash: before.passwordHash, createdAt: before.createdAt });
    expect(await db().cabinetRecoveryCode.count({ where: { userId: owner.userId } })).toBe(0);

    // Audited with the operator as the actor, and the user is told.
    const audit = await db().cabinetAuditEvent.findMany({ where: { merchantId: store.merchantId, action: "team.reset_by_operator" } });
    expect(audit.map((row) => ({ actorEmail: row.actorEmail, userId: row.userId, outcome: row.outcome, detail: row.detail }))).toEqual([
      { actorEmail: cliActor(), userId: owner.userId, outcome: "success", detail: { userId: owner.userId, email: owner.email, endedSessions: 2, isPasswordReset: false, enrolBy: reset.json.enrol_by } },
    ]);
    const mail = await db().outboundEmail.findFirstOrThrow({ where: { recipient: owner.email }, orderBy: { createdAt: "desc" } });
    expect(mail.subject).toBe("Your Gateway sign-in was reset");
    expect(mail.text).toContain("set up an authenticator app again");

    // The same password now leads to enrolment, and the new key works.
    await signInFirstTime(clock, owner.email, from);
    expect((await db().cabinetUser.findUniqueOrThrow({ where: { id: owner.userId } })).totpEnabledAt).not.toBeNull();
  });

  it("gives an owner whose enrolment expired a new password and a fresh enrolment deadline", { timeout: 240_000 }, async () => {
    const clock = movingClock();
    const store = await createStore("Late shop");
    const email = store.ownerEmail.toLowerCase();
    const past = new Date(Date.now() - ENROLMENT_DEADLINE_MS - 60_000);
    await db().cabinetUser.update({ where: { email }, data: { createdAt: past, enrolmentStartedAt: past } });
    expect(await refusalCodeOf(checkPassword(clock.deps, { email, password: TEST_PASSWORD }, randomOrigin()))).toBe("cabinet.enrolment_expired");

    const reset = await runCli(["user", "reset", "--email", email, "--json"]);
    expect(reset.status, reset.stderr).toBe(0);
    expect(reset.json).toMatchObject({ email, role: "owner", ended_sessions: 0, password: expect.stringMatching(/^.{20,}$/) });
    // The address keeps its user: the same row, its creation time untouched.
    expect(await db().cabinetUser.findUniqueOrThrow({ where: { email } })).toMatchObject({ id: reset.json.user_id, createdAt: past });
    // The e-mail never carries the password: the operator hands it over.
    const mail = await db().outboundEmail.findFirstOrThrow({ where: { recipient: email }, orderBy: { createdAt: "desc" } });
    expect(mail.text).not.toContain(reset.json.password);
    expect(mail.text).toContain("password was replaced");

    // The old password is refused as any wrong one; the new one leads to enrolment.
    const from = randomOrigin();
    expect(await refusalCodeOf(checkPassword(clock.deps, { email, password: TEST_PASSWORD }, from))).toBe("cabinet.bad_credentials");
    const ticket = await checkPassword(clock.deps, { email, password: reset.json.password }, from);
    expect(ticket.purpose).toBe("enrol");
    const { secret } = await showEnrolmentKey(clock.deps, ticket.token);
    expect((await confirmEnrolment(clock.deps, { ticket: ticket.token, code: await clock.nextCode(secret) }, from)).recoveryCodes).toHaveLength(10);
  });

  it("answers cli.not_found for an e-mail that names no cabinet user", { timeout: 240_000 }, async () => {
    const [unknown, missing] = await Promise.all([
      runCli(["user", "reset", "--email", "nobody-at-all@example.com", "--json"]),
      runCli(["user", "reset", "--json"]),
    ]);
    expect(unknown.status).toBe(1);
    expect(unknown.json).toEqual({ error: { code: "cli.not_found", message: "No cabinet user nobody-at-all@example.com" } });
    expect(unknown.stderr).toContain("No cabinet user");
    expect(missing.status).toBe(1);
    expect(missing.json.error.code).toBe("cli.usage");
  });
});
