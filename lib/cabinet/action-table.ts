import type { z } from "zod";
import type { InputSpec } from "@/lib/errors";
import type { CabinetPermission } from "@/lib/domain/cabinet/permissions";
import type { AuditAction } from "@/lib/services/cabinet/audit-log";
import type { CabinetDeps, RequestOrigin } from "@/lib/services/cabinet/cabinet-deps";
import type { CabinetActor } from "@/lib/services/cabinet/sessions";
import type { ApiDeps } from "@/lib/api/deps";

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
  /** Identifiers for the audit row (never secrets). */
  describe?(input: z.output<Schema>, result: unknown): Record<string, string | number | boolean | null>;
}

export function defineCabinetAction<Schema extends z.ZodType>(entry: CabinetActionEntry<Schema>): CabinetActionEntry {
  return entry as unknown as CabinetActionEntry;
}
