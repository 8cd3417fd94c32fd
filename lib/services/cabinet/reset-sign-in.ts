import { randomBytes } from "node:crypto";
import { hashPassword } from "@/lib/auth/passwords";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { enrolmentDeadline } from "@/lib/domain/cabinet/enrolment-deadline";
import { queueEmail } from "@/lib/email/outbox";
import { signInResetEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { recordAudit } from "./audit-log";
import { endAllSessions } from "./sessions";
import { forgetAllAccountFailures } from "./throttle";

export interface SignInReset {
  userId: string;
  merchantId: string;
  email: string;
  role: string;
  endedSessions: number;
  /** The new password in clear, shown once to the operator; null when the password was kept. */
  password: string | null;
  /** The user enrols TOTP again by then, or is refused as any user who never enrolled. */
  enrolBy: Date;
}

export interface SignInResetRequest {
  userId: string;
  shouldReplacePassword: boolean;
  /** Who resets (the operator), as the audit log names the actor. */
  operator: string;
}

interface PreparedReset extends SignInResetRequest {
  password: string | null;
  passwordHash: string | null;
  now: Date;
  enrolBy: Date;
}

/** A password the operator hands over: 24 characters of base64url, 144 random bits. */
function newPassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * The operator's reset of a cabinet user who cannot get in any more: the authenticator and the
 * recovery codes are lost, or the 7 days to enrol ran out (a store's only owner is kept for this).
 * In one transaction every session of the user ends, the second factor is cleared (key, replay
 * step, recovery codes, open sign-in tickets), the enrolment's 7 days start again, the account's
 * failed attempts are forgotten, and — when asked — the password is replaced by a random one. The
 * next sign-in with the password is then a first sign-in: the usual enrolment, nothing of its
 * own. The user is e-mailed (never the password: the operator hands it over) and the store's audit
 * log names the operator as the actor.
 */
export const resetSignIn: UnitOfWork<SignInResetRequest, PreparedReset, SignInReset> = {
  prepare: async (deps, request) => {
    const password = request.shouldReplacePassword ? newPassword() : null;
    // scrypt takes a while: outside the transaction.
    const passwordHash = password === null ? null : await hashPassword(password);
    const now = deps.now();
    return { ...request, password, passwordHash, now, enrolBy: enrolmentDeadline(now) };
  },
  execute: async (tx, deps, { userId, operator, password, passwordHash, now, enrolBy }) => {
    // Conditional on the user still being on the team: a member removed meanwhile stays removed.
    const { count } = await tx.cabinetUser.updateMany({
      where: { id: userId, disabledAt: null },
      data: {
        totpSecretCiphertext: null,
        totpEnabledAt: null,
        lastTotpStep: null,
        enrolmentStartedAt: now,
        updatedAt: now,
        ...(passwordHash === null ? {} : { passwordHash }),
      },
    });
    if (count !== 1) throw new AppError("cabinet.not_found", "The user is no longer on its store's team.");
    const user = await tx.cabinetUser.findUniqueOrThrow({ where: { id: userId } });
    await tx.cabinetRecoveryCode.deleteMany({ where: { userId: user.id } });
    // A ticket opened before (a code step, an enrolment with a key of its own) dies with the old state.
    await tx.cabinetSignInTicket.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    const endedSessions = await endAllSessions(tx, user.id);
    // The person the operator just vouched for starts without the account's earlier failures.
    await forgetAllAccountFailures(tx, user.email);
    await queueEmail(tx, deps.config, { merchantId: user.merchantId, recipient: user.email, ...signInResetEmail({ email: user.email, at: now, endedSessions, isPasswordReset: password !== null, enrolBy }) }, now);
    await recordAudit(
      tx,
      {
        merchantId: user.merchantId,
        userId: user.id,
        actorEmail: operator,
        action: "team.reset_by_operator",
        outcome: "success",
        origin: { ipAddress: "", userAgent: "" },
        detail: { userId: user.id, email: user.email, endedSessions, isPasswordReset: password !== null, enrolBy: enrolBy.toISOString() },
      },
      now,
    );
    return { userId: user.id, merchantId: user.merchantId, email: user.email, role: user.role, endedSessions, password, enrolBy };
  },
};
