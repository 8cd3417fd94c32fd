import { createHash, randomUUID } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import type { Batch, BatchItem } from "@/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";
import { afterCommit } from "@/lib/db/transaction";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { notifyBatchCreated } from "@/lib/db/work-signals";
import type { BatchKind } from "@/lib/domain/batch/transition";

/** spec: Limits — a payment, payout or refund batch holds 1 to 5000 elements. */
export const MAX_BATCH_ELEMENTS = 5000;

export type OnError = "continue" | "stop";

export interface BatchSubmission {
  merchantId: string;
  kind: BatchKind;
  elements: unknown[];
  on_error: OnError;
  createdBy?: string;
}

/**
 * spec: POST /v1/payment/batch, /v1/payout/batch — records the batch and its elements in one
 * transaction; the worker processes them. Elements are checked one by one when processed, so a
 * bad element fails only itself.
 */
export const createBatch = {
  async prepare(_deps: unknown, submission: BatchSubmission): Promise<BatchSubmission> {
    if (submission.elements.length === 0) throw new AppError("batch.empty");
    if (submission.elements.length > MAX_BATCH_ELEMENTS) throw new AppError("batch.too_large");
    return submission;
  },
  async execute(tx: Tx, deps: { now(): Date }, { merchantId, kind, elements, on_error, createdBy }: BatchSubmission): Promise<Batch> {
    const id = randomUUID();
    const now = deps.now();
    const batch = await tx.batch.create({
      data: { id, merchantId, kind, onError: on_error, total: elements.length, createdBy: createdBy ?? null, createdAt: now, updatedAt: now },
    });
    await tx.batchItem.createMany({
      data: elements.map((element, idx) => ({
        batchId: id,
        idx,
        orderId: typeof element === "object" && element !== null && typeof (element as { order_id?: unknown }).order_id === "string" ? (element as { order_id: string }).order_id : null,
        request: JSON.stringify(element),
      })),
    });
    afterCommit(tx, () => notifyBatchCreated(id));
    return batch;
  },
} satisfies UnitOfWork<BatchSubmission, BatchSubmission, Batch>;

/** A UUID derived from the batch and the element's position: the invoice a retried element finds again. */
export function batchElementId(batchId: string, idx: number): string {
  const bytes = createHash("sha256").update(`batch:${batchId}:${idx}`).digest();
  bytes[6] = (bytes[6] & 0x0f) | 0x50; // version 5 (name-based)
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface BatchView {
  batch: Batch;
  items: BatchItem[];
}

/** spec: POST /v1/batch/info — another merchant's batch is `batch.not_found`. */
export async function getBatchInfo(db: Db, merchantId: string, input: { batch_id: string; limit: number; offset: number }): Promise<BatchView> {
  if (!isUuid(input.batch_id)) throw new AppError("batch.bad_id");
  const batch = await db.batch.findFirst({ where: { id: input.batch_id, merchantId } });
  if (!batch) throw new AppError("batch.not_found");
  const items = await db.batchItem.findMany({ where: { batchId: batch.id }, orderBy: { idx: "asc" }, skip: input.offset, take: input.limit });
  return { batch, items };
}
