import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { AppError, isAppError, parseInput } from "@/lib/errors";
import { recordAudit } from "@/lib/services/cabinet/audit-log";
import type { CabinetActionContext } from "./action-table";
import { CABINET_ACTIONS, type CabinetActionName } from "./actions";
import { isSensitiveAction, type CabinetActionResult } from "./sensitive-actions";
import { confirmFreshCode } from "./sign-in";

/**
 * Runs one cabinet action for the signed-in actor: the role's permission, the input's schema, a
 * fresh code where the action is sensitive, then the action's one service call — always scoped by
 * the actor's merchant. Refusals come back as catalogue codes; anything else is a bug and throws.
 */
export async function runCabinetAction(context: CabinetActionContext, name: string, rawInput: unknown, code?: string): Promise<CabinetActionResult> {
  const { deps, actor, origin } = context;
  const entry = Object.hasOwn(CABINET_ACTIONS, name) ? CABINET_ACTIONS[name as CabinetActionName] : undefined;
  const audit = { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, origin };
  try {
    if (!entry) throw new AppError("cabinet.bad_request", `There is no action "${name}".`);
    if (!roleAllows(actor.role, entry.permission)) {
      if (entry.audit) await recordAudit(deps.db, { ...audit, action: entry.audit, outcome: "refused", detail: { reason: "cabinet.forbidden", role: actor.role } }, deps.now());
      throw new AppError("cabinet.forbidden");
    }
    const input = parseInput(entry.input, rawInput ?? {});
    if (isSensitiveAction(name)) await confirmFreshCode(deps, actor, code, entry.audit ?? "step_up", origin);
    const success = (result: unknown) => ({ ...audit, action: entry.audit!, outcome: "success" as const, detail: entry.describe?.(input, result) ?? {} });
    const isAudited = entry.audit !== undefined && !entry.auditedByService;
    if (entry.work) {
      // One unit of work: its audit row commits with it.
      const result = await entry.work(context, input, async (tx, answer) => {
        if (isAudited) await recordAudit(tx, success(answer), deps.now());
      });
      return { ok: true, result };
    }
    const result = await entry.run(context, input);
    if (isAudited) await recordAudit(deps.db, success(result), deps.now());
    return { ok: true, result };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}
