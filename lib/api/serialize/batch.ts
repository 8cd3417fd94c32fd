import type { Batch, BatchItem } from "@/generated/prisma/client";

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
