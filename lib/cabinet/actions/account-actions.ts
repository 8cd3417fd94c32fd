import { z } from "zod";
import { runUnit } from "@/lib/deps/unit-of-work";
import { AppError } from "@/lib/errors";
import { confirmAuthenticatorReset, findPendingKey, startAuthenticatorReset } from "@/lib/services/cabinet/authenticator-reset";
import { changePassword } from "@/lib/services/cabinet/change-password";
import { regenerateRecoveryCodes } from "@/lib/services/cabinet/enrolment";
import { recordAudit } from "@/lib/services/cabinet/audit-log";
import { revokeSession } from "@/lib/services/cabinet/sessions";
import { actorOf } from "@/lib/services/cabinet/sign-in";
import { signOutEverywhere } from "@/lib/services/cabinet/sign-out-everywhere";
import { assertAcceptablePassword, loadCabinetUser } from "@/lib/services/cabinet/users";
import { defineCabinetAction, defineCabinetUnit } from "../action-table";
import { setAlertKind } from "@/lib/services/cabinet/alerts";
import { runAttempt } from "../attempts";

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
  run: async ({ deps, actor, origin }) => ({ recovery_codes: await runUnit(deps, regenerateRecoveryCodes, { actor, origin }) }),
});

export const changeOwnPassword = defineCabinetAction({
  permission: "read",
  audit: "password.changed",
  auditedByService: true,
  input: { schema: z.object({ current_password: z.string(), new_password: z.string() }), invalidBody: "cabinet.bad_request" },
  run: async ({ deps, actor, origin }, input) => {
    assertAcceptablePassword(input.new_password);
    const user = await loadCabinetUser(deps.db, actor.userId);
    const attempt = { actor: actorOf(user), action: "password.changed" as const, origin, now: deps.now() };
    const { endedSessions } = await runAttempt(deps, attempt, changePassword, { actor, user, currentPassword: input.current_password, newPassword: input.new_password });
    return { ended_sessions: endedSessions };
  },
});

export const beginAuthenticatorReset = defineCabinetAction({
  permission: "read",
  audit: "two_factor.reset_started",
  auditedByService: true,
  input: { schema: z.object({ password: z.string() }), invalidBody: "cabinet.bad_request" },
  run: async ({ deps, actor, origin }, input) => {
    const user = await loadCabinetUser(deps.db, actor.userId);
    const attempt = { actor: actorOf(user), action: "two_factor.reset_started" as const, origin, now: deps.now() };
    const key = await runAttempt(deps, attempt, startAuthenticatorReset, { actor, user, password: input.password });
    return { secret: key.secret, qr_data_url: key.qrDataUrl };
  },
});

export const finishAuthenticatorReset = defineCabinetAction({
  permission: "read",
  audit: "two_factor.reset",
  auditedByService: true,
  input: { schema: z.object({ code: z.string() }), invalidBody: "cabinet.bad_request" },
  run: async ({ deps, actor, origin }, input) => {
    const now = deps.now();
    const pending = await findPendingKey(deps, actor, now);
    const attempt = { actor: actorOf(pending.user), action: "two_factor.reset" as const, origin, now };
    const { recoveryCodes, endedSessions } = await runAttempt(deps, attempt, confirmAuthenticatorReset, { ...pending, code: input.code });
    return { recovery_codes: recoveryCodes, ended_sessions: endedSessions };
  },
});

export const signOutAllSessions = defineCabinetAction({
  permission: "read",
  audit: "session.revoked_all",
  auditedByService: true,
  input: { schema: z.object({}), invalidBody: "cabinet.bad_request" },
  run: async ({ deps, actor, origin }) => {
    const { endedSessions } = await runUnit(deps, signOutEverywhere, { actor, origin });
    return { ended_sessions: endedSessions };
  },
});

/** The signed-in user's own e-mail alerts, one kind at a time (lib/services/cabinet/alerts.ts). */
export const setOwnAlert = defineCabinetUnit({
  permission: "read",
  audit: "settings.changed",
  input: { schema: z.object({ kind: z.string(), is_on: z.boolean() }), invalidBody: "cabinet.bad_request" },
  unit: setAlertKind,
  args: ({ actor }, input) => ({ userId: actor.userId, role: actor.role, kind: input.kind, isOn: input.is_on }),
  describe: (input) => ({ setting: "alert", kind: input.kind, on: input.is_on }),
});
