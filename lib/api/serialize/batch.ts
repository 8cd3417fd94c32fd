import { z } from "zod";
import type { Batch, BatchItem } from "@/generated/prisma/client";
import type { BatchKind } from "@/lib/domain/batch/transition";
import { PAYMENT_SCHEMA } from "./payment";
import { PAYOUT_SCHEMA, REFUND_SCHEMA } from "./payout";

const timestamp = (what: string) => z.iso.datetime().describe(`${what} (RFC 3339, UTC).`);

/** spec: Batch — one element's outcome; `result` is what the single call answers for the kind. */
function batchItemSchema(result: z.ZodType) {
  return z.object({
    idx: z.number().int().describe("The element's zero-based position in the submitted array."),
    status: z.enum(["pending", "processing", "done", "error"]).describe("`pending` → `processing` → `done` or `error`."),
    order_id: z.string().optional().describe("The element's `order_id`, when it gave one."),
    result: result.optional().describe("Only when `done`: the object the single call answers."),
    error: z
      .string()
      .optional()
      .describe("Only when `error`: a human-readable message (`<code>: <message>` for a refusal), not a code; `skipped: batch stopped after an earlier failure` for elements a `stop` batch never ran."),
  });
}

function batchSchema(kind: BatchKind, result: z.ZodType, id: string) {
  return z
    .object({
      batch_id: z.uuid().describe("The batch's identifier."),
      kind: z.literal(kind),
      status: z.enum(["pending", "processing", "completed"]).describe("`pending` (accepted, not started), `processing`, `completed` (finished, not necessarily successfully)."),
      on_error: z.enum(["continue", "stop"]).describe("`continue`: a failed element fails only itself. `stop`: the elements after the first failure become `error`."),
      total: z.number().int().describe("Elements in the whole batch."),
      succeeded: z.number().int().describe("Elements `done`, over the whole batch."),
      failed: z.number().int().describe("Elements `error` (skipped ones included), over the whole batch."),
      created_at: timestamp("Creation time"),
      updated_at: timestamp("Last progress"),
      items: z.array(batchItemSchema(result)).describe("The requested page of elements, by position."),
    })
    .meta({ id, description: `A ${kind} batch with a page of its elements.` });
}

/** spec: Batch — the object batch info answers, its item results typed by `kind`. */
export const BATCH_SCHEMA = z
  .discriminatedUnion("kind", [batchSchema("payment", PAYMENT_SCHEMA, "PaymentBatch"), batchSchema("payout", PAYOUT_SCHEMA, "PayoutBatch"), batchSchema("refund", REFUND_SCHEMA, "RefundBatch")])
  .meta({ id: "Batch", description: "A batch: counters over all its elements and one page of them. `kind` decides what `items[].result` holds." });

/** spec: POST /v1/payment/batch, /v1/payout/batch — what a batch submission answers. */
export function batchAcceptedSchema(kind: BatchKind) {
  return z.object({
    batch_id: z.uuid().describe("Poll it with `POST /v1/batch/info`."),
    kind: z.literal(kind),
    count: z.number().int().describe("Elements accepted."),
    status: z.literal("pending").describe("Always `pending`: elements are processed asynchronously."),
  });
}

/** spec: Batch — counters over the whole batch, items of the requested page. */
export function toBatch(batch: Batch, items: BatchItem[]) {
  return {
    batch_id: batch.id,
    kind: batch.kind,
    status: batch.status,
    on_error: batch.onError,
    total: batch.total,
    succeeded: batch.succeeded,
    failed: batch.failed,
    created_at: batch.createdAt.toISOString(),
    updated_at: batch.updatedAt.toISOString(),
    items: items.map((item) => ({
      idx: item.idx,
      status: item.status,
      ...(item.orderId !== null ? { order_id: item.orderId } : {}),
      ...(item.status === "done" && item.result !== null ? { result: JSON.parse(item.result) as unknown } : {}),
      ...(item.status === "error" && item.error !== null ? { error: item.error } : {}),
    })),
  };
}
