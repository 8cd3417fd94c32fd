import type { CabinetUser } from "@/generated/prisma/client";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { queueEmail } from "@/lib/email/outbox";
import { passwordChangedEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { recordAudit } from "./audit-log";
import { endOtherSessions, type CabinetActor } from "./sessions";
import { recordFailedAttempt, refuse, type AdmittedAttempt, type Refused } from "./sign-in";
import { giveAttemptBack } from "./throttle";

export interface PasswordChange extends AdmittedAttempt {
  actor: CabinetActor;
  user: CabinetUser;
  currentPassword: string;
  /** Already found acceptable (assertAcceptablePassword): `cabinet.weak_password` comes before the attempt. */
  newPassword: string;
}

type ChangeVerdict = { verdict: "wrong" } | { verdict: "unchanged" } | { verdict: "right"; passwordHash: string };

/**
 * Changes the signed-in user's password (the action asks for a fresh code first). The current
 * password is asked again — a stolen session and a code are not enough to lock the owner out —
 * and counted as a sign-in attempt (beginAttempt) before it is checked: a wrong one answers
 * `cabinet.wrong_password` (or the lock it brought about). The new one must differ
 * (`cabinet.password_unchanged`). In one transaction the hash is replaced, every other session of
 * the user is deleted (this one stays), sign-in tickets the old password opened die, the user is
 * e-mailed and the change is audited.
 */
export const changePassword: UnitOfWork<PasswordChange, PasswordChange & ChangeVerdict, { endedSessions: number } | Refused> = {
  prepare: async (_deps, change) => {
    if (!(await verifyPassword(change.currentPassword, change.user.passwordHash))) return { ...change, verdict: "wrong" };
    if (change.newPassword === change.currentPassword) return { ...change, verdict: "unchanged" };
    // scrypt takes a while: outside the transaction.
    return { ...change, verdict: "right", passwordHash: await hashPassword(change.newPassword) };
  },
  execute: async (tx, deps, plan) => {
    const { attempt, taken, actor, user } = plan;
    const { origin, now } = attempt;
    if (plan.verdict === "wrong") return recordFailedAttempt(tx, deps, attempt, "cabinet.wrong_password", taken);
    if (plan.verdict === "unchanged") {
      await giveAttemptBack(tx, taken.source, now);
      return refuse(new AppError("cabinet.password_unchanged"));
    }
    // Conditional on the hash just checked: of two racing changes only the first lands, and the
    // other is refused as if its current password were wrong (it is, now).
    const { count } = await tx.cabinetUser.updateMany({ where: { id: user.id, passwordHash: user.passwordHash, disabledAt: null }, data: { passwordHash: plan.passwordHash, updatedAt: now } });
    if (count !== 1) throw new AppError("cabinet.wrong_password");
    await giveAttemptBack(tx, taken.source, now);
    const endedSessions = await endOtherSessions(tx, user.id, actor.sessionId);
    // A ticket the old password opened (someone halfway through signing in with it) dies too.
    await tx.cabinetSignInTicket.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    await queueEmail(tx, deps.config, { merchantId: user.merchantId, recipient: user.email, ...passwordChangedEmail({ email: user.email, at: now, origin, endedSessions }) }, now);
    await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "password.changed", outcome: "success", origin, detail: { endedSessions } }, now);
    return { endedSessions };
  },
};
