import { AppError } from "@/lib/errors";
import { recordAudit, type AuditAction } from "./audit-log";
import type { CabinetDeps, RequestOrigin } from "./cabinet-deps";
import type { CabinetActor } from "./sessions";
import { takeSecondFactor } from "./second-factor";
import { actorOf, beginAttempt, failAttempt } from "./sign-in";
import { giveAttemptBack } from "./throttle";
import { withTransaction } from "@/lib/db/transaction";

/**
 * A sensitive action goes ahead only with a fresh code (TOTP or recovery) taken now, whatever the
 * session: a stolen cookie alone cannot create keys or move money. Wrong codes count towards the
 * same lock as sign-in attempts.
 */
export async function confirmFreshCode(deps: CabinetDeps, actor: CabinetActor, code: string | undefined, action: AuditAction, origin: RequestOrigin): Promise<void> {
  const now = deps.now();
  const audit = { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, origin };
  if (!code || code.trim() === "") {
    await recordAudit(deps.db, { ...audit, action, outcome: "refused", detail: { reason: "cabinet.code_required" } }, now);
    throw new AppError("cabinet.code_required");
  }
  const user = await deps.db.cabinetUser.findUniqueOrThrow({ where: { id: actor.userId } });
  const lockIfWrong = await beginAttempt(deps, actorOf(user), action, origin, now);
  const passed = await takeSecondFactor(deps.db, deps.secretBox, user, code, now);
  if (!passed) return failAttempt(deps, actorOf(user), "step_up", origin, now, "cabinet.bad_code", lockIfWrong);
  await withTransaction(deps.db, async (tx) => {
    await giveAttemptBack(tx, lockIfWrong.source, now);
    await recordAudit(tx, { ...audit, action: "step_up", outcome: "success", detail: { for: action, method: passed } }, now);
  });
}
