import { unitOf } from "@/lib/deps/unit-of-work";
import { recordAudit } from "./audit-log";
import type { RequestOrigin } from "./cabinet-deps";
import { endAllSessions, type CabinetActor } from "./sessions";

/**
 * Ends every session of the signed-in user, this one included (the action asks for a fresh code
 * first): each browser, a thief's too, is back at the sign-in page at its next request.
 */
export const signOutEverywhere = unitOf(async (tx, deps, { actor, origin }: { actor: CabinetActor; origin: RequestOrigin }): Promise<{ endedSessions: number }> => {
  const endedSessions = await endAllSessions(tx, actor.userId);
  await recordAudit(tx, { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "session.revoked_all", outcome: "success", origin, detail: { endedSessions } }, deps.now());
  return { endedSessions };
});
