import type { AppDeps } from "@/lib/deps/app-deps";
import { runUnit } from "@/lib/deps/unit-of-work";
import type { AuditAction } from "@/lib/services/cabinet/audit-log";
import type { RequestOrigin } from "@/lib/services/cabinet/cabinet-deps";
import { enrolAuthenticator, findEnrolmentKey, type ConfirmedEnrolment } from "@/lib/services/cabinet/enrolment";
import type { CabinetActor } from "@/lib/services/cabinet/sessions";
import { actorOf, beginAttempt, findLiveTicket, findSignInAccount, openSessionWithCode, passPassword, type IssuedTicket } from "@/lib/services/cabinet/sign-in";
import { refuseWithoutCode, takeFreshCode } from "@/lib/services/cabinet/step-up";
import { loadCabinetUser } from "@/lib/services/cabinet/users";
import { runAttempt, runOrRefuse } from "./attempts";

// The sign-in steps and the fresh code of sensitive actions: each password or code is counted
// (committed) before it is checked, so a refused attempt stays counted and recorded.

/** The first step: e-mail and password → a ticket for the second step (see passPassword). */
export async function checkPassword(deps: AppDeps, input: { email: string; password: string }, origin: RequestOrigin): Promise<IssuedTicket> {
  const now = deps.now();
  const { user, actor } = await findSignInAccount(deps.db, input.email);
  return runAttempt(deps, { actor, action: "sign_in.password", origin, now }, passPassword, { user, password: input.password });
}

/** The second step: a ticket and a code become a session (see openSessionWithCode). */
export async function completeSignIn(deps: AppDeps, input: { ticket: string; code: string }, origin: RequestOrigin): Promise<CabinetActor> {
  const now = deps.now();
  const { ticket, user } = await findLiveTicket(deps.db, input.ticket, ["code", "enrolled"], now);
  const attempt = { actor: actorOf(user), action: "sign_in.code" as const, origin, now };
  const taken = ticket.purpose === "code" ? await runOrRefuse(deps, beginAttempt, attempt) : null;
  return runOrRefuse(deps, openSessionWithCode, { attempt, ticket, user, code: input.code, taken });
}

/** Enrolment: the first code from the app turns TOTP on (see enrolAuthenticator). */
export async function confirmEnrolment(deps: AppDeps, input: { ticket: string; code: string }, origin: RequestOrigin): Promise<ConfirmedEnrolment> {
  const now = deps.now();
  const enrolment = await findEnrolmentKey(deps, input.ticket, now);
  return runAttempt(deps, { actor: actorOf(enrolment.user), action: "two_factor.enrolled", origin, now }, enrolAuthenticator, { ...enrolment, code: input.code });
}

/**
 * A sensitive action goes ahead only with a fresh code (TOTP or recovery) taken now, whatever the
 * session; wrong codes count towards the same lock as sign-in attempts.
 */
export async function confirmFreshCode(deps: AppDeps, actor: CabinetActor, code: string | undefined, action: AuditAction, origin: RequestOrigin): Promise<void> {
  const now = deps.now();
  if (!code || code.trim() === "") throw (await runUnit(deps, refuseWithoutCode, { actor, action, origin, now })).refusal;
  const user = await loadCabinetUser(deps.db, actor.userId);
  await runAttempt(deps, { actor: actorOf(user), action, origin, now }, takeFreshCode, { user, code, for: action });
}
