import type { z } from "zod";
import type { InputSpec } from "@/lib/errors";
import type { CabinetPermission } from "@/lib/domain/cabinet/permissions";
import type { AuditAction } from "@/lib/services/cabinet/audit-log";
import type { CabinetDeps, RequestOrigin } from "@/lib/services/cabinet/cabinet-deps";
import type { CabinetActor } from "@/lib/services/cabinet/sessions";
import type { ApiDeps } from "@/lib/api/deps";
import type { Tx } from "@/lib/db/client";
import { runUnit, type UnitOfWork } from "@/lib/deps/unit-of-work";

/** What an action runs with: the services' collaborators, who acts, and from where. */
export interface CabinetActionContext {
  deps: ApiDeps & CabinetDeps;
  actor: CabinetActor;
  origin: RequestOrigin;
}

/**
 * One cabinet action: who may run it, what it takes, which audit action it records (sensitive
 * ones: the fresh-code check is named after it), and the one service call it makes.
 */
export interface CabinetActionEntry<Schema extends z.ZodType = z.ZodType> {
  permission: CabinetPermission;
  /** Recorded in the audit log on success (and named by the fresh-code check) unless the service records it itself. */
  audit?: AuditAction;
  /** The service writes its own audit row, in its own transaction. */
  auditedByService?: boolean;
  /** The same input rules (and codes) as the API operation doing the same thing, where there is one. */
  input: InputSpec<Schema>;
  run(context: CabinetActionContext, input: z.output<Schema>): Promise<unknown>;
  /**
   * Present when the action is one unit of work: the runner opens its transaction, and the audit
   * row of its success commits in it (`run` is then the same unit without the audit row).
   */
  work?: CabinetWork;
  /** Identifiers for the audit row (never secrets). */
  describe?(input: z.output<Schema>, result: unknown): Record<string, string | number | boolean | null>;
}

/** An action's unit of work, bound to its context and input: run it, then finish in its transaction. */
export type CabinetWork = (context: CabinetActionContext, input: unknown, finish: (tx: Tx, answer: unknown) => Promise<void>) => Promise<unknown>;

interface CabinetUnitSpec<Schema extends z.ZodType, Args, Plan, Result> extends Omit<CabinetActionEntry<Schema>, "run" | "work"> {
  /** The service's unit of work the action runs. */
  unit: UnitOfWork<Args, Plan, Result>;
  args(context: CabinetActionContext, input: z.output<Schema>): Args;
  /** What the action answers, from the unit's result (in its transaction). */
  answer?(result: Result, context: CabinetActionContext): unknown;
}

export function defineCabinetAction<Schema extends z.ZodType>(entry: CabinetActionEntry<Schema>): CabinetActionEntry {
  return entry as unknown as CabinetActionEntry;
}

/** A cabinet action that is one unit of work of a service (see CabinetActionEntry.work). */
export function defineCabinetUnit<Schema extends z.ZodType, Args, Plan, Result>(spec: CabinetUnitSpec<Schema, Args, Plan, Result>): CabinetActionEntry {
  const { unit, args, answer, ...entry } = spec;
  const work: CabinetWork = (context, input, finish) =>
    runUnit(context.deps, unit, args(context, input as z.output<Schema>), async (tx, result) => {
      const answered = answer ? await answer(result, context) : result;
      await finish(tx, answered);
      return answered;
    });
  return defineCabinetAction({ ...entry, work, run: (context, input) => work(context, input, async () => {}) });
}
