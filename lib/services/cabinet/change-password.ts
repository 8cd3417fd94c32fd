import { hashPassword } from "@/lib/auth/passwords";
import { withTransaction } from "@/lib/db/transaction";
import { queueEmail } from "@/lib/email/outbox";
import { passwordChangedEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { recordAudit } from "./audit-log";
import type { CabinetDeps, RequestOrigin } from "./cabinet-deps";
import { checkCurrentPassword } from "./current-password";
import { endOtherSessions, type CabinetActor } from "./sessions";
import { giveAttemptBack } from "./throttle";
import { assertAcceptablePassword } from "./users";

/**
 * Changes the signed-in user's password (the action asks for a fresh code first): the current
 * password is checked as a sign-in attempt, the new one follows the same rules as everywhere
 * (`cabinet.weak_password`) and must differ (`cabinet.password_unchanged`). In one transaction the
 * hash is replaced, every other session of the user is deleted (this one stays), sign-in tickets
 * the old password opened die, the user is e-mailed and the change is audited.
 */
export async function changePassword(
  deps: CabinetDeps,
  actor: CabinetActor,
  input: { currentPassword: string; newPassword: string },
  origin: RequestOrigin,
): Promise<{ endedSessions: number }> {
  const now = deps.now();
  assertAcceptablePassword(input.newPassword);
  const user = await deps.db.cabinetUser.findUniqueOrThrow({ where: { id: actor.userId } });
  const taken = await checkCurrentPassword(deps, user, input.currentPassword, "password.changed", origin, now);
  if (input.newPassword === input.currentPassword) {
    await withTransaction(deps.db, (tx) => giveAttemptBack(tx, taken.source, now));
    throw new AppError("cabinet.password_unchanged");
  }
  // scrypt takes a while: outside the transaction.
  const passwordHash = await hashPassword(input.newPassword);
  return withTransaction(deps.db, async (tx) => {
    // Conditional on the hash just checked: of two racing changes only the first lands, and the
    // other is refused as if its current password were wrong (it is, now).
    const { count } = await tx.cabinetUser.updateMany({ where: { id: user.id, passwordHash: user.passwordHash, disabledAt: null }, data: { passwordHash, updatedAt: now } });
    if (count !== 1) throw new AppError("cabinet.wrong_password");
    await giveAttemptBack(tx, taken.source, now);
    const endedSessions = await endOtherSessions(tx, user.id, actor.sessionId);
    // A ticket the old password opened (someone halfway through signing in with it) dies too.
    await tx.cabinetSignInTicket.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    await queueEmail(tx, deps.config, { merchantId: user.merchantId, recipient: user.email, ...passwordChangedEmail({ email: user.email, at: now, origin, endedSessions }) }, now);
    await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "password.changed", outcome: "success", origin, detail: { endedSessions } }, now);
    return { endedSessions };
  });
}
