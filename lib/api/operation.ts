import type { z } from "zod";
import type { ApiKeyKind } from "@/lib/auth/api-keys";
import { AppError, ERROR_CATALOGUE, type ErrorCode } from "@/lib/errors";
import type { ApiDeps } from "./deps";
import type { EnvelopeKind } from "./envelope";

/** What a handler knows about the call besides its body. */
export interface OperationContext {
  deps: ApiDeps;
  /** The calling merchant; null on public operations. */
  merchantId: string | null;
  /** Values of `{name}` segments in the path. */
  params: Record<string, string>;
  clientIp: string;
}

/** An operation after definition: validates its body, then runs. */
export interface Operation {
  run(body: unknown, context: OperationContext): Promise<unknown>;
}

export interface OperationSpec<Schema extends z.ZodType> {
  schema: Schema;
  /** The code for a body that fails the schema, unless its field names its own in `fieldErrors`. */
  invalidBody: ErrorCode;
  fieldErrors?: Partial<Record<string, ErrorCode>>;
  handle(input: z.output<Schema>, context: OperationContext): Promise<unknown>;
}

/** Wraps a handler with its schema so that every failure of the body maps to a documented code. */
export function defineOperation<Schema extends z.ZodType>(spec: OperationSpec<Schema>): Operation {
  return {
    async run(body, context) {
      const parsed = spec.schema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        // A nested field may name its own code ("accepted.network"); else its top-level field does.
        const namedPath = issue?.path.filter((part) => typeof part === "string").join(".") ?? "";
        const field = typeof issue?.path[0] === "string" ? issue.path[0] : undefined;
        const code = spec.fieldErrors?.[namedPath] || (field && spec.fieldErrors?.[field]) || spec.invalidBody;
        const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
        throw new AppError(code, `${ERROR_CATALOGUE[code].message} (${where}${issue?.message ?? "invalid"})`);
      }
      return spec.handle(parsed.data, context);
    },
  };
}

export type OperationAuth = { kind: "public" } | { kind: "signed"; keys: readonly ApiKeyKind[] };

/** A row of the operation table. */
export interface OperationEntry {
  method: "GET" | "POST";
  /** Path with `{name}` placeholders, e.g. `/v1/pay/{id}`. */
  path: string;
  auth: OperationAuth;
  /** Creating operations honour Idempotency-Key. */
  idempotent: boolean;
  envelope: EnvelopeKind;
  operation: Operation;
}
