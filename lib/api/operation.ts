import type { z } from "zod";
import type { ApiKeyKind } from "@/lib/auth/api-key-identity";
import { parseInput, type InputSpec } from "@/lib/errors/parse-input";
import type { ErrorCode } from "@/lib/errors";
import type { Tx } from "@/lib/db/client";
import { runUnit, type UnitOfWork } from "@/lib/deps/unit-of-work";
import type { MerchantInvoiceTerms } from "@/lib/domain/invoice/merchant-terms";
import type { ApiDeps } from "./deps";
import type { EnvelopeKind } from "./envelope";

/** What a handler knows about the call besides its body. */
export interface OperationContext {
  deps: ApiDeps;
  /** The calling merchant; null on public operations. */
  merchantId: string | null;
  /** Who calls, as payouts record it (`key:<public id>`); null on public operations. */
  actor: string | null;
  /** The calling merchant's fee and tolerance for new invoices, read with its key; null on public operations. */
  merchantTerms: MerchantInvoiceTerms | null;
  /** Values of `{name}` segments in the path. */
  params: Record<string, string>;
  clientIp: string;
  /** The operation table this request was routed by: what the API's own document describes. */
  operations: readonly OperationEntry[];
}

/**
 * Given by dispatch on an idempotent call with an Idempotency-Key: stores the operation's answer
 * as the key's response in the unit's transaction, so that it commits with the writes or not at all.
 */
export type RecordAnswer = (tx: Tx, answer: unknown) => Promise<void>;

/**
 * What the API document says about an operation, kept beside its handler so that the two
 * change together. The request schema is the one the handler validates with.
 */
export interface OperationDocs {
  /** One line, imperative ("Create an invoice"). */
  summary: string;
  /** Longer prose in Markdown: behaviour, limits, clamping rules. */
  description?: string;
  /** The `result` of a success (the whole body for bare and created envelopes). */
  response: z.ZodType;
  /**
   * Codes this operation answers beyond those of transport, authentication, idempotency and its
   * own input checks (which the document adds from the operation table and the input spec).
   */
  errors: readonly ErrorCode[];
  /** The body as documented, where the handler's schema takes elements it checks one by one (batches). */
  documentedRequest?: z.ZodType;
  /** A request body the operation accepts (documented, and checked against the schema by a test). */
  requestExample?: unknown;
  /** A `result` it answers (checked against `response` by a test). */
  responseExample?: unknown;
}

/**
 * An operation after definition: validates its body, then runs. A read, or a flow of several
 * units, answers after its work; one unit of work (defineWork) records its answer in its own
 * transaction when dispatch gives `recordAnswer`.
 */
export interface Operation {
  run(body: unknown, context: OperationContext, recordAnswer?: RecordAnswer): Promise<unknown>;
  /** The request schema and its failure codes. */
  input: InputSpec<z.ZodType>;
  docs: OperationDocs;
}

export interface OperationSpec<Schema extends z.ZodType> extends InputSpec<Schema>, OperationDocs {
  handle(input: z.output<Schema>, context: OperationContext): Promise<unknown>;
}

/** Wraps a handler with its schema so that every failure of the body maps to a documented code. */
export function defineOperation<Schema extends z.ZodType>(spec: OperationSpec<Schema>): Operation {
  const { schema, invalidBody, fieldErrors, handle, ...docs } = spec;
  return {
    input: { schema, invalidBody, fieldErrors },
    docs,
    async run(body, context) {
      return handle(parseInput(spec, body), context);
    },
  };
}

export interface WorkSpec<Schema extends z.ZodType, Args, Plan, Result> extends InputSpec<Schema>, OperationDocs {
  /** The service's unit of work this operation runs. */
  unit: UnitOfWork<Args, Plan, Result>;
  /** The unit's arguments from the parsed body and the call. */
  args(input: z.output<Schema>, context: OperationContext): Args;
  /** The answer, projected from the unit's result inside its transaction. */
  answer(result: Result, context: OperationContext): unknown;
}

/**
 * An operation that is one unit of work of a service: dispatch owns its transaction, and an
 * idempotent answer commits in it (see RecordAnswer).
 */
export function defineWork<Schema extends z.ZodType, Args, Plan, Result>(spec: WorkSpec<Schema, Args, Plan, Result>): Operation {
  const { schema, invalidBody, fieldErrors, unit, args, answer, ...docs } = spec;
  return {
    input: { schema, invalidBody, fieldErrors },
    docs,
    async run(body, context, recordAnswer) {
      const unitArgs = args(parseInput(spec, body), context);
      return runUnit(context.deps, unit, unitArgs, async (tx, result) => {
        const answered = await answer(result, context);
        await recordAnswer?.(tx, answered);
        return answered;
      });
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
