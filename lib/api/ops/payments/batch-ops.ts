import { z } from "zod";
import { createBatch, getBatchInfo, MAX_BATCH_ELEMENTS } from "@/lib/services/batches/batches";
import { createPaymentBodySchema } from "@/lib/api/requests/payment";
import { createPayoutBodySchema } from "@/lib/api/requests/payout";
import { createRefundBodySchema } from "@/lib/api/requests/refund";
import type { ErrorCode } from "@/lib/errors";
import { defineOperation, defineWork } from "../../operation";
import { BATCH_SCHEMA, batchAcceptedSchema, toBatch } from "../../serialize/batch";
import { PAYMENT_EXAMPLE } from "../../serialize/payment";
import { actorOf, merchantOf } from "../context";

const onErrorSchema = z
  .enum(["continue", "stop"])
  .default("continue")
  .describe("`continue` (default): a failed element fails only itself. `stop`: after the first failure the remaining elements become `error` and are counted in `failed`.");

/** The body as documented: the elements as their single call takes them (the handler checks each one when it is processed). */
function documentedBatchBody(field: string, element: z.ZodType, what: string) {
  return z.object({
    [field]: z.array(element).min(1).max(MAX_BATCH_ELEMENTS).describe(`1 to ${MAX_BATCH_ELEMENTS} elements, ${what}. A bad element fails only itself, in \`items[].error\` of batch info.`),
    on_error: onErrorSchema,
  });
}

// spec: POST /v1/payment/batch, /v1/payout/batch — request-level refusals; per-element ones appear only in items[].error.
const BATCH_SUBMIT_ERRORS: readonly ErrorCode[] = ["batch.empty", "batch.too_large", "batch.disabled"];

const ASYNCHRONOUS =
  "Processing is asynchronous: poll `POST /v1/batch/info` with the answered `batch_id` (every few seconds, with backoff) to see each element's outcome. `Idempotency-Key` covers the whole batch. The batch counts as one request for rate limiting, whatever its size.";

export const createPaymentBatchOp = defineWork({
  // Elements are checked one by one when processed: a bad element fails only itself.
  schema: z.object({ payments: z.array(z.unknown()), on_error: onErrorSchema }),
  invalidBody: "batch.bad_request",
  fieldErrors: { payments: "batch.empty" },
  summary: "Create invoices in an asynchronous batch",
  description: `Accepts 1 to ${MAX_BATCH_ELEMENTS} invoices, each with the body of \`POST /v1/payment\`; \`order_id\` makes each element idempotent as it does the single call. No invoices are in the answer: they appear in \`items[].result\` of batch info. ${ASYNCHRONOUS}`,
  documentedRequest: documentedBatchBody("payments", createPaymentBodySchema, "each the body of `POST /v1/payment`"),
  response: batchAcceptedSchema("payment"),
  errors: BATCH_SUBMIT_ERRORS,
  requestExample: {
    payments: [
      { amount: "25.00", currency: "USD", order_id: "order-1001", to_currency: "USDT", network: "tron" },
      { amount: "0.01", currency: "BTC", order_id: "order-1002" },
    ],
    on_error: "continue",
  },
  responseExample: { batch_id: "5b0f3c52-8d4e-4a8e-9d35-1c1f5e3b2a71", kind: "payment", count: 2, status: "pending" },
  unit: createBatch,
  args: (input, context) => ({ merchantId: merchantOf(context), kind: "payment" as const, elements: input.payments, on_error: input.on_error }),
  answer: (batch) => ({ batch_id: batch.id, kind: "payment", count: batch.total, status: "pending" }),
});

export const batchInfoOp = defineOperation({
  schema: z.object({
    batch_id: z.string().describe("The `batch_id` a batch submission answered (a UUID)."),
    limit: z.number().int().optional().describe("Items per page, a whole number from 1 to 1000; default 100, and one outside that range gives 100."),
    offset: z.number().int().optional().describe("Items to skip from the first element, a whole number; default 0, and a negative value gives 0."),
  }),
  invalidBody: "batch.bad_request",
  fieldErrors: { batch_id: "batch.bad_id" },
  summary: "Get a batch's progress and a page of its elements",
  description:
    "Answers the counters over the whole batch (independent of the page) and the elements from `offset`, by position. A `done` element carries the object its single call answers (an invoice, a payout or a refund, by `kind`); an `error` element carries a human-readable message, not a code. `completed` means processing finished, not that every element succeeded; this call says whether objects were created, not whether invoices were paid. Another merchant's batch is `batch.not_found`.",
  response: BATCH_SCHEMA,
  errors: ["batch.not_found", "batch.disabled"],
  requestExample: { batch_id: "5b0f3c52-8d4e-4a8e-9d35-1c1f5e3b2a71", limit: 100, offset: 0 },
  responseExample: {
    batch_id: "5b0f3c52-8d4e-4a8e-9d35-1c1f5e3b2a71",
    kind: "payment",
    status: "completed",
    on_error: "continue",
    total: 2,
    succeeded: 1,
    failed: 1,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:02.000Z",
    items: [
      { idx: 0, status: "done", order_id: "order-1001", result: PAYMENT_EXAMPLE },
      { idx: 1, status: "error", order_id: "order-1002", error: "payment.below_minimum: The amount is below the network's minimum." },
    ],
  },
  handle: async (input, context) => {
    // Page size 1 to 1000, default 100; an invalid one becomes the default.
    const limit = input.limit !== undefined && input.limit >= 1 && input.limit <= 1000 ? input.limit : 100;
    const offset = input.offset !== undefined && input.offset >= 0 ? input.offset : 0;
    const { batch, items } = await getBatchInfo(context.deps.db, merchantOf(context), { batch_id: input.batch_id, limit, offset });
    return toBatch(batch, items);
  },
});

export const createPayoutBatchOp = defineWork({
  // spec: POST /v1/payout/batch — elements as in create, order_id mandatory in each (checked per element).
  schema: z.object({ payouts: z.array(z.unknown()), on_error: onErrorSchema }),
  invalidBody: "batch.bad_request",
  fieldErrors: { payouts: "batch.empty" },
  summary: "Create payouts in an asynchronous batch",
  description: `Accepts 1 to ${MAX_BATCH_ELEMENTS} payouts, each with the body of \`POST /v1/payout\` and its own \`order_id\` (mandatory here; it keeps a resubmitted element from paying twice). Elements are made in order against the balance: when funds run out the rest fail with \`payout.insufficient_funds\` (under \`continue\`), and \`payout.funds_maturing\` elements can be resubmitted later. ${ASYNCHRONOUS}`,
  documentedRequest: documentedBatchBody("payouts", createPayoutBodySchema, "each the body of `POST /v1/payout` with `order_id`"),
  response: batchAcceptedSchema("payout"),
  errors: BATCH_SUBMIT_ERRORS,
  requestExample: {
    payouts: [
      { amount: "120.50", currency: "USDT", network: "tron", address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", order_id: "payout-2001" },
      { amount: "0.015", currency: "ETH", network: "ethereum", address: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e", order_id: "payout-2002" },
    ],
    on_error: "stop",
  },
  responseExample: { batch_id: "0c6f8f0e-2a47-4d0b-8f5e-7a3c9d214b56", kind: "payout", count: 2, status: "pending" },
  unit: createBatch,
  args: (input, context) => ({ merchantId: merchantOf(context), kind: "payout" as const, elements: input.payouts, on_error: input.on_error, createdBy: actorOf(context) }),
  answer: (batch) => ({ batch_id: batch.id, kind: "payout", count: batch.total, status: "pending" }),
});

export const createRefundBatchOp = defineWork({
  // Designed like the payment batch: elements as in POST /v1/payment/refund, checked one by one.
  schema: z.object({ refunds: z.array(z.unknown()), on_error: onErrorSchema }),
  invalidBody: "batch.bad_request",
  fieldErrors: { refunds: "batch.empty" },
  summary: "Create refunds in an asynchronous batch",
  description: `Designed like the payment batch: 1 to ${MAX_BATCH_ELEMENTS} refunds, each with the body of \`POST /v1/payment/refund\` and its rules (a repeated element finds its refund again by payment, address and amount). The outcome is in batch info with \`kind: refund\`. ${ASYNCHRONOUS}`,
  documentedRequest: documentedBatchBody("refunds", createRefundBodySchema, "each the body of `POST /v1/payment/refund`"),
  response: batchAcceptedSchema("refund"),
  errors: BATCH_SUBMIT_ERRORS,
  requestExample: {
    refunds: [
      { uuid: "8f14e45f-ceea-467f-a8f4-2d5b0c9e1a37", amount: "10.000000" },
      { order_id: "order-1002", address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" },
    ],
  },
  responseExample: { batch_id: "d9e8c7b6-a5f4-4e3d-9c2b-1a0f9e8d7c6b", kind: "refund", count: 2, status: "pending" },
  unit: createBatch,
  args: (input, context) => ({ merchantId: merchantOf(context), kind: "refund" as const, elements: input.refunds, on_error: input.on_error, createdBy: actorOf(context) }),
  answer: (batch) => ({ batch_id: batch.id, kind: "refund", count: batch.total, status: "pending" }),
});
