import { z } from "zod";
import { createBatch, getBatchInfo } from "@/lib/services/batches/batches";
import { defineOperation } from "../../operation";
import { toBatch } from "../../serialize/batch";
import { actorOf, merchantOf } from "../context";

export const createPaymentBatchOp = defineOperation({
  // Elements are checked one by one when processed: a bad element fails only itself.
  schema: z.object({ payments: z.array(z.unknown()), on_error: z.enum(["continue", "stop"]).default("continue") }),
  invalidBody: "batch.bad_request",
  fieldErrors: { payments: "batch.empty" },
  handle: async (input, context) => {
    const answer = (batch: { id: string; total: number }) => ({ batch_id: batch.id, kind: "payment", count: batch.total, status: "pending" });
    const { completeWithin } = context;
    const batch = await createBatch(context.deps.db, merchantOf(context), { kind: "payment", elements: input.payments, on_error: input.on_error }, context.deps.now(), {
      onWritten: completeWithin && ((tx, created) => completeWithin(tx, answer(created))),
    });
    return answer(batch);
  },
});

export const batchInfoOp = defineOperation({
  schema: z.object({ batch_id: z.string(), limit: z.number().int().optional(), offset: z.number().int().optional() }),
  invalidBody: "batch.bad_request",
  fieldErrors: { batch_id: "batch.bad_id" },
  handle: async (input, context) => {
    // Page size 1 to 1000, default 100; an invalid one becomes the default.
    const limit = input.limit !== undefined && input.limit >= 1 && input.limit <= 1000 ? input.limit : 100;
    const offset = input.offset !== undefined && input.offset >= 0 ? input.offset : 0;
    const { batch, items } = await getBatchInfo(context.deps.db, merchantOf(context), { batch_id: input.batch_id, limit, offset });
    return toBatch(batch, items);
  },
});

export const createPayoutBatchOp = defineOperation({
  // spec: POST /v1/payout/batch — elements as in create, order_id mandatory in each (checked per element).
  schema: z.object({ payouts: z.array(z.unknown()), on_error: z.enum(["continue", "stop"]).default("continue") }),
  invalidBody: "batch.bad_request",
  fieldErrors: { payouts: "batch.empty" },
  handle: async (input, context) => {
    const answer = (batch: { id: string; total: number }) => ({ batch_id: batch.id, kind: "payout", count: batch.total, status: "pending" });
    const { completeWithin } = context;
    const batch = await createBatch(context.deps.db, merchantOf(context), { kind: "payout", elements: input.payouts, on_error: input.on_error }, context.deps.now(), {
      createdBy: actorOf(context),
      onWritten: completeWithin && ((tx, created) => completeWithin(tx, answer(created))),
    });
    return answer(batch);
  },
});

export const createRefundBatchOp = defineOperation({
  // Designed like the payment batch: elements as in POST /v1/payment/refund, checked one by one.
  schema: z.object({ refunds: z.array(z.unknown()), on_error: z.enum(["continue", "stop"]).default("continue") }),
  invalidBody: "batch.bad_request",
  fieldErrors: { refunds: "batch.empty" },
  handle: async (input, context) => {
    const answer = (batch: { id: string; total: number }) => ({ batch_id: batch.id, kind: "refund", count: batch.total, status: "pending" });
    const { completeWithin } = context;
    const batch = await createBatch(context.deps.db, merchantOf(context), { kind: "refund", elements: input.refunds, on_error: input.on_error }, context.deps.now(), {
      createdBy: actorOf(context),
      onWritten: completeWithin && ((tx, created) => completeWithin(tx, answer(created))),
    });
    return answer(batch);
  },
});
