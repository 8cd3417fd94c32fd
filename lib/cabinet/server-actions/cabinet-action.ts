"use server";

import { getApiDeps } from "@/lib/api/deps";
import { requireActorForAction } from "@/lib/cabinet/current-actor";
import { currentOrigin } from "@/lib/cabinet/request-origin";
import { runCabinetAction } from "@/lib/cabinet/run-action";
import type { CabinetActionResult } from "@/lib/cabinet/sensitive-actions";
import { isAppError } from "@/lib/errors";

/**
 * The one server action of the cabinet: runs an entry of lib/cabinet/actions by name for the
 * signed-in actor. `code` is the fresh code sensitive actions need.
 */
export async function cabinetAction(name: string, input: unknown, code?: string): Promise<CabinetActionResult> {
  try {
    const actor = await requireActorForAction();
    return await runCabinetAction({ deps: getApiDeps(), actor, origin: await currentOrigin() }, String(name), input, typeof code === "string" ? code : undefined);
  } catch (error) {
    if (isAppError(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
