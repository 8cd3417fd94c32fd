import type { CabinetUser } from "@/generated/prisma/client";
import { unitOf } from "@/lib/deps/unit-of-work";
import { AppError } from "@/lib/errors";
import { recordAudit, type AuditAction } from "./audit-log";
import type { RequestOrigin } from "./cabinet-deps";
import type { CabinetActor } from "./sessions";
import { takeSecondFactor } from "./second-factor";
import { recordFailedAttempt, refuse, type AdmittedAttempt, type Refused } from "./sign-in";
import { giveAttemptBack } from "./throttle";

// A sensitive action goes ahead only with a fresh code (TOTP or recovery) taken now, whatever the
// session: a stolen cookie alone cannot create keys or move money. Wrong codes count towards the
// same lock as sign-in attempts (beginAttempt, then takeFreshCode).

/** A sensitive action asked for without a code: refused, and that recorded under the action. */
export const refuseWithoutCode = unitOf(async (tx, _deps, { actor, action, origin, now }: { actor: CabinetActor; action: AuditAction; origin: RequestOrigin; now: Date }): Promise<Refused> => {
  await recordAudit(tx, { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, origin, action, outcome: "refused", detail: { reason: "cabinet.code_required" } }, now);
  return refuse(new AppError("cabinet.code_required"));
});

/** Takes the fresh code once (an attempt counted by beginAttempt, recorded as `step_up` for `for`). */
export const takeFreshCode = unitOf(async (tx, deps, { attempt, taken, user, code, for: action }: AdmittedAttempt & { user: CabinetUser; code: string; for: AuditAction }): Promise<void | Refused> => {
  const { actor, origin, now } = attempt;
  const passed = await takeSecondFactor(tx, deps.secretBox, user, code, now);
  if (!passed) return recordFailedAttempt(tx, deps, { ...attempt, action: "step_up" }, "cabinet.bad_code", taken);
  await giveAttemptBack(tx, taken.source, now);
  await recordAudit(tx, { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "step_up", outcome: "success", origin, detail: { for: action, method: passed } }, now);
});
