import type { CabinetUser } from "@/generated/prisma/client";
import { verifyPassword } from "@/lib/auth/passwords";
import type { AuditAction } from "./audit-log";
import type { CabinetDeps, RequestOrigin } from "./cabinet-deps";
import { actorOf, beginAttempt, failAttempt, type TakenAttempt } from "./sign-in";

/**
 * The signed-in user's current password, asked again before a change of credentials (a stolen
 * session and a code are not enough to lock the owner out). Counted like a sign-in attempt before
 * it is checked; a wrong one is recorded under `action` and answers `cabinet.wrong_password` (or
 * the lock it brought about). The caller gives the attempt back, in its own transaction, when the
 * change goes through.
 */
export async function checkCurrentPassword(deps: CabinetDeps, user: CabinetUser, password: string, action: AuditAction, origin: RequestOrigin, now: Date): Promise<TakenAttempt> {
  const taken = await beginAttempt(deps, actorOf(user), action, origin, now);
  if (!(await verifyPassword(password, user.passwordHash))) return failAttempt(deps, actorOf(user), action, origin, now, "cabinet.wrong_password", taken);
  return taken;
}
