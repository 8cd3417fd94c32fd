import { z } from "zod";
import { AppError } from "@/lib/errors";
import { regenerateRecoveryCodes } from "@/lib/services/cabinet/enrolment";
import { recordAudit } from "@/lib/services/cabinet/audit-log";
import { revokeSession } from "@/lib/services/cabinet/sessions";
import { defineCabinetAction } from "../action-table";

export const signOutSession = defineCabinetAction({
  permission: "read",
  input: { schema: z.object({ id: z.uuid() }), invalidBody: "cabinet.bad_request" },
  run: async ({ deps, actor, origin }, input) => {
    if (!(await revokeSession(deps.db, actor.userId, input.id, deps.now()))) throw new AppError("cabinet.not_found");
    await recordAudit(deps.db, { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "session.revoked", outcome: "success", origin, detail: { session: input.id } }, deps.now());
    return { revoked: true };
  },
});

export const newRecoveryCodes = defineCabinetAction({
  permission: "read",
  audit: "two_factor.recovery_codes_regenerated",
  auditedByService: true,
  input: { schema: z.object({}), invalidBody: "cabinet.bad_request" },
  run: async ({ deps, actor, origin }) => ({ recovery_codes: await regenerateRecoveryCodes(deps, actor, origin) }),
});
