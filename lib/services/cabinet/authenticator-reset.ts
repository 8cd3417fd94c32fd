import QRCode from "qrcode";
import { matchTotp, newTotpSecret, totpUri } from "@/lib/auth/totp";
import { withTransaction } from "@/lib/db/transaction";
import { queueEmail } from "@/lib/email/outbox";
import { authenticatorReplacedEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { recordAudit } from "./audit-log";
import type { CabinetDeps, RequestOrigin } from "./cabinet-deps";
import { checkCurrentPassword } from "./current-password";
import { replaceRecoveryCodes, TOTP_ISSUER, type EnrolmentKey } from "./enrolment";
import { totpSealContext } from "./second-factor";
import { endOtherSessions, type CabinetActor } from "./sessions";
import { actorOf, beginAttempt, failAttempt } from "./sign-in";
import { giveAttemptBack } from "./throttle";

/** How long a new key waits for its first code: about as long as enrolment at sign-in. */
export const PENDING_KEY_LIFETIME_MS = 15 * 60_000;

/** The associated data that binds a pending key to the session that asked for it. */
const pendingKeySealContext = (sessionId: string) => `cabinet-session:${sessionId}:new-totp`;

/**
 * Starts replacing the signed-in user's authenticator app — after a lost phone, signed in with a
 * recovery code, or just a new phone. The action asks for a fresh code (TOTP or recovery) first;
 * this asks for the password. A new key is made and kept, sealed, on this session only; the user's
 * key in force stays until `confirmAuthenticatorReset` sees a code from the new one. Starting again
 * replaces the pending key.
 */
export async function startAuthenticatorReset(deps: CabinetDeps, actor: CabinetActor, input: { password: string }, origin: RequestOrigin): Promise<EnrolmentKey> {
  const now = deps.now();
  const user = await deps.db.cabinetUser.findUniqueOrThrow({ where: { id: actor.userId } });
  const taken = await checkCurrentPassword(deps, user, input.password, "two_factor.reset_started", origin, now);
  const secret = newTotpSecret();
  await withTransaction(deps.db, async (tx) => {
    await giveAttemptBack(tx, taken.source, now);
    const { count } = await tx.cabinetSession.updateMany({
      where: { id: actor.sessionId, userId: actor.userId },
      data: { pendingTotpSecretCiphertext: deps.secretBox.seal(secret, pendingKeySealContext(actor.sessionId)), pendingTotpExpiresAt: new Date(now.getTime() + PENDING_KEY_LIFETIME_MS) },
    });
    // The session was ended meanwhile (signed out elsewhere).
    if (count !== 1) throw new AppError("cabinet.not_signed_in");
    await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "two_factor.reset_started", outcome: "success", origin }, now);
  });
  const qrDataUrl = await QRCode.toDataURL(totpUri(secret, user.email, TOTP_ISSUER), { margin: 1, width: 220 });
  return { email: user.email, secret, qrDataUrl };
}

/**
 * Confirms the pending key of this session with a code from the new app (a wrong one counts
 * towards the sign-in lock). In one transaction: the new key replaces the old one, ten new
 * recovery codes replace the old ones (returned once), every other session of the user is
 * deleted, the user is e-mailed and the reset is audited. `cabinet.no_pending_key` when this
 * session has no key waiting, or it expired.
 */
export async function confirmAuthenticatorReset(
  deps: CabinetDeps,
  actor: CabinetActor,
  input: { code: string },
  origin: RequestOrigin,
): Promise<{ recoveryCodes: string[]; endedSessions: number }> {
  const now = deps.now();
  const session = await deps.db.cabinetSession.findFirst({ where: { id: actor.sessionId, userId: actor.userId } });
  const sealed = session?.pendingTotpSecretCiphertext ?? null;
  if (!session || !sealed || !session.pendingTotpExpiresAt || session.pendingTotpExpiresAt <= now) throw new AppError("cabinet.no_pending_key");
  const secret = deps.secretBox.open(sealed, pendingKeySealContext(session.id));
  const user = await deps.db.cabinetUser.findUniqueOrThrow({ where: { id: actor.userId } });
  const taken = await beginAttempt(deps, actorOf(user), "two_factor.reset", origin, now);
  const step = await matchTotp(secret, input.code.trim().replace(/\s/g, ""), now, null);
  if (step === null) return failAttempt(deps, actorOf(user), "two_factor.reset", origin, now, "cabinet.bad_code", taken);
  return withTransaction(deps.db, async (tx) => {
    // Taken once: of two confirmations racing (two tabs), one replaces the key.
    const { count } = await tx.cabinetSession.updateMany({
      where: { id: session.id, pendingTotpSecretCiphertext: sealed },
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
    const endedSessions = await endOtherSessions(tx, user.id, session.id);
    await queueEmail(tx, deps.config, { merchantId: user.merchantId, recipient: user.email, ...authenticatorReplacedEmail({ email: user.email, at: now, origin, endedSessions }) }, now);
    await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "two_factor.reset", outcome: "success", origin, detail: { endedSessions } }, now);
    return { recoveryCodes, endedSessions };
  });
}
