import QRCode from "qrcode";
import type { CabinetUser } from "@/generated/prisma/client";
import { verifyPassword } from "@/lib/auth/passwords";
import { matchTotp, newTotpSecret, totpUri } from "@/lib/auth/totp";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { queueEmail } from "@/lib/email/outbox";
import { authenticatorReplacedEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { recordAudit } from "./audit-log";
import { replaceRecoveryCodes, TOTP_ISSUER, type EnrolmentKey } from "./enrolment";
import { totpSealContext } from "./second-factor";
import { endOtherSessions, type CabinetActor } from "./sessions";
import { recordFailedAttempt, type AdmittedAttempt, type Refused } from "./sign-in";
import { giveAttemptBack } from "./throttle";

/** How long a new key waits for its first code: about as long as enrolment at sign-in. */
export const PENDING_KEY_LIFETIME_MS = 15 * 60_000;

/** The associated data that binds a pending key to the session that asked for it. */
const pendingKeySealContext = (sessionId: string) => `cabinet-session:${sessionId}:new-totp`;

export interface ResetStart extends AdmittedAttempt {
  actor: CabinetActor;
  user: CabinetUser;
  password: string;
}

/**
 * Starts replacing the signed-in user's authenticator app — after a lost phone, signed in with a
 * recovery code, or just a new phone. The action asks for a fresh code (TOTP or recovery) first;
 * this asks for the password, counted as a sign-in attempt (beginAttempt) before it is checked:
 * a wrong one answers `cabinet.wrong_password` (or the lock it brought about). A new key is made
 * and kept, sealed, on this session only; the user's key in force stays until
 * `confirmAuthenticatorReset` sees a code from the new one. Starting again replaces the pending key.
 */
export const startAuthenticatorReset: UnitOfWork<ResetStart, ResetStart & { key: EnrolmentKey | null }, EnrolmentKey | Refused> = {
  prepare: async (_deps, start) => {
    if (!(await verifyPassword(start.password, start.user.passwordHash))) return { ...start, key: null };
    const secret = newTotpSecret();
    const qrDataUrl = await QRCode.toDataURL(totpUri(secret, start.user.email, TOTP_ISSUER), { margin: 1, width: 220 });
    return { ...start, key: { email: start.user.email, secret, qrDataUrl } };
  },
  execute: async (tx, deps, { attempt, taken, actor, user, key }) => {
    const { origin, now } = attempt;
    if (!key) return recordFailedAttempt(tx, deps, attempt, "cabinet.wrong_password", taken);
    await giveAttemptBack(tx, taken.source, now);
    const { count } = await tx.cabinetSession.updateMany({
      where: { id: actor.sessionId, userId: actor.userId },
      data: { pendingTotpSecretCiphertext: deps.secretBox.seal(key.secret, pendingKeySealContext(actor.sessionId)), pendingTotpExpiresAt: new Date(now.getTime() + PENDING_KEY_LIFETIME_MS) },
    });
    // The session was ended meanwhile (signed out elsewhere).
    if (count !== 1) throw new AppError("cabinet.not_signed_in");
    await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "two_factor.reset_started", outcome: "success", origin }, now);
    return key;
  },
};

/**
 * The key waiting on this session, opened, and its user; `cabinet.no_pending_key` when this
 * session has no key waiting, or it expired.
 */
export async function findPendingKey(deps: { db: Db; secretBox: SecretBox }, actor: CabinetActor, now: Date) {
  const session = await deps.db.cabinetSession.findFirst({ where: { id: actor.sessionId, userId: actor.userId } });
  const sealed = session?.pendingTotpSecretCiphertext ?? null;
  if (!session || !sealed || !session.pendingTotpExpiresAt || session.pendingTotpExpiresAt <= now) throw new AppError("cabinet.no_pending_key");
  const secret = deps.secretBox.open(sealed, pendingKeySealContext(session.id));
  const user = await deps.db.cabinetUser.findUniqueOrThrow({ where: { id: actor.userId } });
  return { sessionId: session.id, sealed, secret, user };
}

export interface ResetConfirmation extends AdmittedAttempt, Awaited<ReturnType<typeof findPendingKey>> {
  code: string;
}

/**
 * Confirms the pending key of this session with a code from the new app (an attempt counted by
 * beginAttempt). In one transaction: the new key replaces the old one, ten new recovery codes
 * replace the old ones (returned once), every other session of the user is deleted, the user is
 * e-mailed and the reset is audited.
 */
export const confirmAuthenticatorReset: UnitOfWork<ResetConfirmation, ResetConfirmation & { step: bigint | null }, { recoveryCodes: string[]; endedSessions: number } | Refused> = {
  prepare: async (_deps, confirmation) => ({ ...confirmation, step: await matchTotp(confirmation.secret, confirmation.code.trim().replace(/\s/g, ""), confirmation.attempt.now, null) }),
  execute: async (tx, deps, { attempt, taken, sessionId, sealed, secret, user, step }) => {
    const { origin, now } = attempt;
    if (step === null) return recordFailedAttempt(tx, deps, attempt, "cabinet.bad_code", taken);
    // Taken once: of two confirmations racing (two tabs), one replaces the key.
    const { count } = await tx.cabinetSession.updateMany({
      where: { id: sessionId, pendingTotpSecretCiphertext: sealed },
      data: { pendingTotpSecretCiphertext: null, pendingTotpExpiresAt: null },
    });
    if (count !== 1) throw new AppError("cabinet.no_pending_key");
    // The step of the code just typed is spent, so it cannot also pass as a fresh code.
    await tx.cabinetUser.update({
      where: { id: user.id },
      data: { totpSecretCiphertext: deps.secretBox.seal(secret, totpSealContext(user.id)), totpEnabledAt: now, lastTotpStep: step, updatedAt: now },
    });
    await giveAttemptBack(tx, taken.source, now);
    const recoveryCodes = await replaceRecoveryCodes(tx, deps.secretBox, user.id, now);
    const endedSessions = await endOtherSessions(tx, user.id, sessionId);
    await queueEmail(tx, deps.config, { merchantId: user.merchantId, recipient: user.email, ...authenticatorReplacedEmail({ email: user.email, at: now, origin, endedSessions }) }, now);
    await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "two_factor.reset", outcome: "success", origin, detail: { endedSessions } }, now);
    return { recoveryCodes, endedSessions };
  },
};
