import type { Command } from "commander";
import cliProgress from "cli-progress";
import type { Batch } from "@/generated/prisma/client";
import type { Db } from "@/lib/db/client";
import { isUuid } from "@/lib/domain/input/uuid";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { parseCount, pause } from "../lookups";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

/** How many failed elements the summary names; the rest are in POST /v1/batch/info. */
const SHOWN_FAILURES = 20;

async function findBatchOrThrow(db: Db, batchId: string): Promise<Batch> {
  const batch = isUuid(batchId) ? await db.batch.findUnique({ where: { id: batchId } }) : null;
  if (!batch) throw new CliError("cli.not_found", `No batch ${batchId}`);
  return batch;
}

async function summarize(db: Db, batch: Batch) {
  const failures = await db.batchItem.findMany({ where: { batchId: batch.id, status: "error" }, orderBy: { idx: "asc" }, take: SHOWN_FAILURES });
  return {
    batch_id: batch.id,
    merchant_id: batch.merchantId,
    kind: batch.kind,
    status: batch.status,
    is_complete: batch.status === "completed",
    total: batch.total,
    succeeded: batch.succeeded,
    failed: batch.failed,
    failures: failures.map((item) => ({ idx: item.idx, ...(item.orderId !== null ? { order_id: item.orderId } : {}), error: item.error ?? "" })),
  };
}

function describeSummary(summary: Awaited<ReturnType<typeof summarize>>): string {
  const head = `${summary.kind} batch ${summary.batch_id}: ${summary.is_complete ? "complete" : `not complete (${summary.status})`}\n` +
    `total ${summary.total}, succeeded ${summary.succeeded}, failed ${summary.failed}`;
  if (summary.failures.length === 0) return head;
  const table = formatTable(summary.failures, [
    { header: "ELEMENT", value: (item) => String(item.idx), align: "right" },
    { header: "ORDER", value: (item) => item.order_id ?? "" },
    { header: "ERROR", value: (item) => item.error },
  ]);
  const more = summary.failed > summary.failures.length ? `\n(${summary.failed - summary.failures.length} more failures: POST /v1/batch/info)` : "";
  return `${head}\n\n${table}${more}`;
}

export function registerBatchCommands(program: Command): void {
  const batch = program.command("batch").description("payment, payout and refund batches");

  defineAction<{ interval: string; timeout?: string }>(
    batch
      .command("watch")
      .description("follows a batch with a progress bar until the worker has processed every element, then prints its counts")
      .argument("<batch_id>", "the batch (batch_id of the create call)")
      .option("--interval <ms>", "how often to look, in milliseconds", "500")
      .option("--timeout <seconds>", "give up after this long (exit 1, cli.timeout); default: until complete or Ctrl-C"),
    async (options, context, [batchId]) => {
      const intervalMs = parseCount(options.interval, "--interval", { min: 50, max: 60_000 });
      const timeoutMs = options.timeout === undefined ? undefined : parseCount(options.timeout, "--timeout", { min: 1, max: 86_400 }) * 1000;
      return withCliDatabase(async (db) => {
        let current = await findBatchOrThrow(db, batchId);
        const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
        // The bar goes to stderr and only for people: under --json, stdout carries the final object alone.
        const bar = context.isJson
          ? undefined
          : new cliProgress.SingleBar(
              { format: `${current.kind} batch [{bar}] {value}/{total} | {succeeded} succeeded, {failed} failed`, hideCursor: true },
              cliProgress.Presets.shades_classic,
            );
        // On stderr in both modes: says the batch exists and is being followed (stdout keeps the result).
        process.stderr.write(`Watching ${current.kind} batch ${current.id}: ${current.succeeded + current.failed}/${current.total} processed\n`);
        bar?.start(current.total, current.succeeded + current.failed, { succeeded: current.succeeded, failed: current.failed });
        try {
          while (current.status !== "completed" && !context.signal.aborted) {
            if (deadline !== undefined && Date.now() >= deadline) break;
            await pause(intervalMs, context.signal);
            current = await findBatchOrThrow(db, batchId);
            bar?.update(current.succeeded + current.failed, { succeeded: current.succeeded, failed: current.failed });
          }
        } finally {
          bar?.stop();
        }
        const summary = await summarize(db, current);
        if (!summary.is_complete && !context.signal.aborted) {
          throw new CliError("cli.timeout", `batch ${batchId} is not complete after ${options.timeout} s: ${summary.succeeded + summary.failed}/${summary.total} processed`);
        }
        // Stopped with Ctrl-C: the state so far, and the shell's code for an interrupted command.
        return { json: summary, text: describeSummary(summary), exitCode: summary.is_complete ? 0 : 130 };
      });
    },
    { runsUntilStopped: true },
  );
}
