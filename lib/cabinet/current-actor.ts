import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getApiDeps } from "@/lib/api/deps";
import { AppError } from "@/lib/errors";
import { resolveSession, type CabinetActor } from "@/lib/services/cabinet/sessions";
import { getConfig } from "@/lib/config/env";
import { SIGN_IN_PATH, sessionCookieName, sessionIdFromCookie } from "./auth-options";

/** The signed-in actor of this request, or null. Once per request. */
export const findCurrentActor = cache(async (): Promise<CabinetActor | null> => {
  const cookieStore = await cookies();
  const cookie = cookieStore.get(sessionCookieName(getConfig().publicBaseUrl))?.value;
  const sessionId = await sessionIdFromCookie(cookie);
  if (!sessionId) return null;
  const deps = getApiDeps();
  return resolveSession(deps.db, sessionId, deps.now());
});

/** For pages: the actor, or a redirect to the sign-in page. */
export async function requireActorForPage(): Promise<CabinetActor> {
  const actor = await findCurrentActor();
  if (!actor) redirect(SIGN_IN_PATH);
  return actor;
}

/** For server actions: the actor, or `cabinet.not_signed_in`. */
export async function requireActorForAction(): Promise<CabinetActor> {
  const actor = await findCurrentActor();
  if (!actor) throw new AppError("cabinet.not_signed_in");
  return actor;
}
