import type { AppDeps } from "@/lib/deps/app-deps";
import type { Db, Tx } from "@/lib/db/client";
import { isAppError, parseInput } from "@/lib/errors";
import { decideBatchItem } from "@/lib/domain/batch/transition";
import { createInvoice, type CreateInvoiceInput } from "@/lib/services/invoices/create-invoice";
import { createInvoicesInBulk } from "@/lib/services/invoices/create-invoices-in-bulk";
import { CREATE_PAYMENT_INPUT } from "@/lib/api/requests/payment";
import { batchElementId } from "@/lib/services/batches/batches";
import { createPayout } from "@/lib/services/payouts/create-payout";
import { CREATE_PAYOUT_INPUT } from "@/lib/api/requests/payout";
import { toPayoutObject, toRefundObject } from "@/lib/api/serialize/payout";
import { createPayoutsInOrder } from "./create-payouts-in-order";
import { createRefund } from "@/lib/services/refunds/create-refund";
import { CREATE_REFUND_INPUT } from "@/lib/api/requests/refund";
import { withTransaction } from "@/lib/db/transaction";
import { log } from "@/lib/log";
import { runUnit } from "@/lib/deps/unit-of-work";

/** spec: Batch and item status — the message of the elements after a stop. */
export const SKIPPED_MESSAGE = "skipped: batch stopped after an earlier failure";
const LEASE_SECONDS = 60;
/** Elements of a `continue` batch in flight at once. */
const ELEMENT_PARALLELISM = 8;

/** What the batch worker runs with: the collaborators of every unit of work. */
export type BatchDeps = AppDeps;

/** Claims one batch that is waiting or whose worker died (lease lapsed); null when there is none. */
async function claimBatch(db: Db, now: Date): Promise<string | null> {
  const leaseUntil = new Date(now.getTime() + LEASE_SECONDS * 1000);
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE batches SET status = 'processing', lease_until = ${leaseUntil}, updated_at = ${now}
    WHERE id = (
      SELECT id FROM batches
      WHERE status IN ('pending', 'processing') AND (lease_until IS NULL OR lease_until <= ${now})
      ORDER BY created_at LIMIT 1
      FOR UPDATE SKIP LOCKED
    ) AND (lease_until IS NULL OR lease_until <= ${now})
    RETURNING id::text AS id`;
  return rows[0]?.id ?? null;
}

function messageOf(error: unknown): string {
  if (isAppError(error)) return `${error.code}: ${error.message}`;
  return "internal error; the element was not created";
}

/**
 * Processes one batch to the end, element by element in order. Each element's invoice has an
 * id derived from its position, so an element interrupted by a crash is finished, not
 * duplicated, when the batch is claimed again. Counters move with each element, so progress
 * is visible while it runs.
 */
export async function processOneBatch(deps: BatchDeps): Promise<string | null> {
  const batchId = await claimBatch(deps.db, deps.now());
  if (!batchId) return null;
  const batch = await deps.db.batch.findUniqueOrThrow({ where: { id: batchId } });
  // Under `stop` the order decides what is skipped, and payouts are taken from the balance in
  // order, so those go one at a time; the invoices of a `continue` batch are independent and
  // several are made at once.
  const parallelism = batch.onError === "stop" || batch.kind !== "payment" ? 1 : ELEMENT_PARALLELISM;
  // A `stop` batch whose worker died after a failure stays stopped when claimed again.
  let isStopped = batch.onError === "stop" && batch.failed > 0;
  for (;;) {
    const isPaymentChunk = batch.kind === "payment" && batch.onError === "continue";
    const items = await deps.db.batchItem.findMany({
      where: { batchId, status: { in: ["pending", "processing"] } },
      orderBy: { idx: "asc" },
      take: batch.kind === "payout" ? PAYOUT_CHUNK : isPaymentChunk ? PAYMENT_CHUNK : 100,
    });
    if (items.length === 0) break;
    if (batch.kind === "payout" && batch.onError === "continue") {
      await processPayoutChunk(deps, batch, items);
      continue;
    }
    if (isPaymentChunk) {
      await processPaymentChunk(deps, batch, items);
      continue;
    }
    let next = 0;
    const runner = async () => {
      while (!isStopped && next < items.length) {
        const item = items[next++];
        const isError = await processElement(deps, batch, item);
        if (isError && batch.onError === "stop") isStopped = true;
      }
    };
    await Promise.all(Array.from({ length: parallelism }, runner));
    if (isStopped) {
      await withTransaction(deps.db, async (tx) => {
        const skip = decideBatchItem("skipped");
        const { count } = await tx.batchItem.updateMany({ where: { batchId, status: { in: skip.from } }, data: { status: skip.to, error: SKIPPED_MESSAGE } });
        await tx.batch.update({ where: { id: batchId }, data: { failed: { increment: count }, updatedAt: deps.now() } });
      });
      break;
    }
  }
  await deps.db.batch.update({ where: { id: batchId }, data: { status: "completed", leaseUntil: null, updatedAt: deps.now() } });
  return batchId;
}

type BatchRow = { id: string; merchantId: string; kind: string; createdBy: string | null };

/**
 * What one element of each kind of batch makes, answered as the single call answers: with the
 * same checks and codes. An element interrupted by a crash finds its object again when run
 * anew — an invoice by the id derived from its position, a payout by its order_id.
 */
const ELEMENT_HANDLERS: Record<string, (deps: BatchDeps, batch: BatchRow, idx: number, request: unknown) => Promise<unknown>> = {
  payment: async (deps, batch, idx, request) => {
    return deps.presentInvoice(await runUnit(deps, createInvoice, { merchantId: batch.merchantId, input: parseInput(CREATE_PAYMENT_INPUT, request), invoiceId: batchElementId(batch.id, idx) }));
  },
  refund: async (deps, batch, _idx, request) => {
    // Found again when run anew: by (payment, address, amount), as a repeated refund call is.
    const { refund, payment } = await runUnit(deps, createRefund, { merchantId: batch.merchantId, input: parseInput(CREATE_REFUND_INPUT, request), actor: batch.createdBy ?? `batch:${batch.id}` });
    return toRefundObject(refund, payment);
  },
  payout: async (deps, batch, _idx, request) => {
    const payout = await runUnit(deps, createPayout, { merchantId: batch.merchantId, input: parseInput(CREATE_PAYOUT_INPUT, request), actor: batch.createdBy ?? `batch:${batch.id}` });
    return toPayoutObject(payout);
  },
};

/** Payout elements reserved together (see createPayoutsInOrder). */
const PAYOUT_CHUNK = 250;

/**
 * The payout elements of a `continue` batch, a chunk at a time: made in order against the
 * balance by createPayoutsInOrder (one reservation transaction per chunk), then recorded with
 * the counters in one transaction. A crash in between leaves the chunk to run again: its
 * payouts are found again by their order_id, never made twice.
 */
async function processPayoutChunk(deps: BatchDeps, batch: BatchRow, items: { idx: number; request: string }[]): Promise<void> {
  const start = decideBatchItem("started");
  await deps.db.batchItem.updateMany({ where: { batchId: batch.id, idx: { in: items.map((item) => item.idx) }, status: { in: start.from } }, data: { status: start.to } });
  const requests = items.map((item) => {
    try {
      return JSON.parse(item.request) as unknown;
    } catch {
      return null;
    }
  });
  const outcomes = await createPayoutsInOrder(deps, batch.merchantId, requests, batch.createdBy ?? `batch:${batch.id}`);
  const now = deps.now();
  const finished = items.map((item, index) => {
    const outcome = outcomes[index];
    const finish = decideBatchItem("payout" in outcome ? "succeeded" : "failed");
    return {
      idx: item.idx,
      status: finish.to,
      from: finish.from,
      result: "payout" in outcome ? JSON.stringify(toPayoutObject(outcome.payout)) : null,
      error: "payout" in outcome ? null : messageOf(outcome.error),
    };
  });
  // Both outcomes leave the same statuses (pending or processing): one statement for the chunk.
  const from = [...new Set(finished.flatMap((item) => item.from))];
  await withTransaction(deps.db, async (tx) => {
    const updated = await tx.$queryRaw<{ status: string }[]>`
      UPDATE batch_items b SET status = v.status, result = v.result, error = v.error
      FROM unnest(${finished.map((item) => item.idx)}::int[], ${finished.map((item) => item.status)}::text[],
                  ${finished.map((item) => item.result)}::text[], ${finished.map((item) => item.error)}::text[]) AS v(idx, status, result, error)
      WHERE b.batch_id = ${batch.id}::uuid AND b.idx = v.idx AND b.status = ANY(${from}::text[])
      RETURNING v.status`;
    const succeeded = updated.filter((row) => row.status === "done").length;
    const failed = updated.length - succeeded;
    await tx.batch.update({
      where: { id: batch.id },
      data: { succeeded: { increment: succeeded }, failed: { increment: failed }, leaseUntil: new Date(now.getTime() + LEASE_SECONDS * 1000), updatedAt: now },
    });
  });
}

/** Payment elements of a `continue` batch created together (see createInvoicesInBulk). */
const PAYMENT_CHUNK = 250;

type ElementOutcome = { result: string } | { error: string };

/**
 * The payment elements of a `continue` batch, a chunk at a time: runs of elements are created by
 * createInvoicesInBulk, whose transaction also records their outcomes and the counters, so an
 * element's invoice and its `done` commit together. An is_refresh element revives one invoice
 * under its own lock and goes alone, in its place in the order.
 */
async function processPaymentChunk(deps: BatchDeps, batch: BatchRow, items: { idx: number; request: string }[]): Promise<void> {
  const start = decideBatchItem("started");
  await deps.db.batchItem.updateMany({ where: { batchId: batch.id, idx: { in: items.map((item) => item.idx) }, status: { in: start.from } }, data: { status: start.to } });
  let run: { idx: number; request: string; parsed: { input: CreateInvoiceInput } | { error: string } }[] = [];
  const flush = async () => {
    if (run.length > 0) await createPaymentRun(deps, batch, run);
    run = [];
  };
  for (const item of items) {
    let parsed: { input: CreateInvoiceInput } | { error: string };
    try {
      parsed = { input: parseInput(CREATE_PAYMENT_INPUT, JSON.parse(item.request)) };
    } catch (error) {
      parsed = { error: messageOf(error) };
    }
    if ("input" in parsed && parsed.input.is_refresh) {
      await flush();
      await processElement(deps, batch, item);
    } else {
      run.push({ ...item, parsed });
    }
  }
  await flush();
}

async function createPaymentRun(deps: BatchDeps, batch: BatchRow, run: { idx: number; request: string; parsed: { input: CreateInvoiceInput } | { error: string } }[]): Promise<void> {
  const creatable = run.flatMap((item) => ("input" in item.parsed ? [{ idx: item.idx, invoiceId: batchElementId(batch.id, item.idx), input: item.parsed.input }] : []));
  try {
    await runUnit(deps, createInvoicesInBulk, { merchantId: batch.merchantId, requests: creatable }, async (tx, invoiceOutcomes) => {
      const outcomeOf = new Map<number, ElementOutcome>();
      for (const item of run) if ("error" in item.parsed) outcomeOf.set(item.idx, { error: item.parsed.error });
      for (const [position, outcome] of invoiceOutcomes.entries()) {
        outcomeOf.set(creatable[position].idx, "invoice" in outcome ? { result: JSON.stringify(await deps.presentInvoice(outcome.invoice)) } : { error: messageOf(outcome.error) });
      }
      await recordOutcomes(tx, deps, batch.id, run.map((item) => ({ idx: item.idx, outcome: outcomeOf.get(item.idx)! })));
    });
  } catch (error) {
    // Not an element's refusal (those are outcomes) but the run failing as a whole: each element
    // then goes alone and gets its own outcome, as it would have without the bulk path.
    log.warn("a run of batch payments failed together; creating them one by one", { batchId: batch.id, error });
    for (const item of run) await processElement(deps, batch, item);
  }
}

/** Records the outcomes of elements still unfinished, and moves the counters by what changed. */
async function recordOutcomes(tx: Tx, deps: BatchDeps, batchId: string, outcomes: { idx: number; outcome: ElementOutcome }[]): Promise<void> {
  const finished = outcomes.map(({ idx, outcome }) => {
    const finish = decideBatchItem("result" in outcome ? "succeeded" : "failed");
    return { idx, status: finish.to, from: finish.from, result: "result" in outcome ? outcome.result : null, error: "error" in outcome ? outcome.error : null };
  });
  // Both outcomes leave the same statuses (pending or processing): one statement for all.
  const from = [...new Set(finished.flatMap((item) => item.from))];
  const updated = await tx.$queryRaw<{ status: string }[]>`
    UPDATE batch_items b SET status = v.status, result = v.result, error = v.error
    FROM unnest(${finished.map((item) => item.idx)}::int[], ${finished.map((item) => item.status)}::text[],
                ${finished.map((item) => item.result)}::text[], ${finished.map((item) => item.error)}::text[]) AS v(idx, status, result, error)
    WHERE b.batch_id = ${batchId}::uuid AND b.idx = v.idx AND b.status = ANY(${from}::text[])
    RETURNING v.status`;
  const succeeded = updated.filter((row) => row.status === "done").length;
  const now = deps.now();
  await tx.batch.update({
    where: { id: batchId },
    data: { succeeded: { increment: succeeded }, failed: { increment: updated.length - succeeded }, leaseUntil: new Date(now.getTime() + LEASE_SECONDS * 1000), updatedAt: now },
  });
}

/** Makes one element's object and records the outcome with the counters; true when it failed. */
async function processElement(deps: BatchDeps, batch: BatchRow, item: { idx: number; request: string }): Promise<boolean> {
  let outcome: { result: string } | { error: string };
  // spec: Batch and item status — pending → processing → done or error.
  const start = decideBatchItem("started");
  await deps.db.batchItem.updateMany({ where: { batchId: batch.id, idx: item.idx, status: { in: start.from } }, data: { status: start.to } });
  try {
    const handler = ELEMENT_HANDLERS[batch.kind];
    if (!handler) throw new Error(`no handler for ${batch.kind} batches`);
    outcome = { result: JSON.stringify(await handler(deps, batch, item.idx, JSON.parse(item.request))) };
  } catch (error) {
    outcome = { error: messageOf(error) };
  }
  const now = deps.now();
  await withTransaction(deps.db, async (tx) => {
    const finish = decideBatchItem("result" in outcome ? "succeeded" : "failed");
    const { count } = await tx.batchItem.updateMany({
      where: { batchId: batch.id, idx: item.idx, status: { in: finish.from } },
      data: "result" in outcome ? { status: finish.to, result: outcome.result } : { status: finish.to, error: outcome.error },
    });
    if (count === 1) {
      await tx.batch.update({
        where: { id: batch.id },
        data: { ...("result" in outcome ? { succeeded: { increment: 1 } } : { failed: { increment: 1 } }), leaseUntil: new Date(now.getTime() + LEASE_SECONDS * 1000), updatedAt: now },
      });
    }
  });
  return "error" in outcome;
}

/** The batch job: processes waiting batches one after another until none is left. */
export async function processPendingBatches(deps: BatchDeps, maxBatches = 10): Promise<number> {
  let processed = 0;
  while (processed < maxBatches && (await processOneBatch(deps))) processed++;
  return processed;
}
