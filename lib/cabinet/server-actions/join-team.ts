"use server";

import { getApiDeps } from "@/lib/api/deps";
import { currentOrigin } from "@/lib/cabinet/request-origin";
import { runUnit } from "@/lib/deps/unit-of-work";
import { isAppError } from "@/lib/errors";
import { acceptInvitation } from "@/lib/services/cabinet/team";

/** Joins the team with the chosen password; two-factor enrolment follows at the first sign-in. */
export async function joinTeam(token: string, password: string): Promise<{ ok: true; email: string } | { ok: false; message: string }> {
  try {
    const joined = await runUnit(getApiDeps(), acceptInvitation, { token: String(token), password: String(password), origin: await currentOrigin() });
    return { ok: true, email: joined.email };
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message };
    throw error;
  }
}
