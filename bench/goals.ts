import type { LoadResult } from "./load";
import { MEMORY_GROWTH_NOISE, type MemoryUnderLoad, type RssSample } from "./memory";
import type { PageFigure } from "./page";
import type { SingleInsertFigure } from "./pg";
import type { ScaleFigure, ScaleOut } from "./scale";

/** Every figure of one `npm run bench` run; a part that did not run leaves its field unset. */
export interface BenchResults {
  concurrency: number;
  bare?: LoadResult;
  signedRead?: LoadResult;
  createInvoices?: LoadResult;
  singleInsert?: SingleInsertFigure;
  paymentBatch?: { size: number; seconds: number };
  payoutBatch?: { size: number; seconds: number };
  webhooks?: { instant: { perSecond: number }; withTimeouts: { perSecond: number } };
  page?: { ping: PageFigure; home: PageFigure; payment: PageFigure };
  idleRss?: RssSample;
  memory?: MemoryUnderLoad;
  scale?: ScaleOut;
}

interface GoalLine {
  goal: string;
  /** The figure measured, or undefined when its part did not run. */
  figure?: string;
  isMet?: boolean;
}

const GOAL_BATCH_SIZE = 5000;

/** A batch goal is stated for 5000 elements; a smaller run is scaled to it at its own rate (a rough guide, marked so). */
function batchLine(goal: string, limitSeconds: number, batch: { size: number; seconds: number } | undefined): GoalLine {
  if (!batch) return { goal };
  const seconds = (batch.seconds * GOAL_BATCH_SIZE) / batch.size;
  const figure = batch.size === GOAL_BATCH_SIZE ? `${seconds.toFixed(1)} s` : `≈ ${seconds.toFixed(1)} s (${batch.size} in ${batch.seconds.toFixed(1)} s, scaled)`;
  return { goal, figure, isMet: seconds <= limitSeconds };
}

/**
 * Throughput grows with the number of web processes when each one added raises it and N of them
 * serve at least 0.75 × N times what one serves (a quarter lost to what they share: PostgreSQL,
 * the worker, the load generator), for signed reads and invoice creation alike.
 */
function scaleLine(scale: ScaleOut | undefined): GoalLine {
  const goal = "throughput grows with web processes";
  if (!scale) return { goal };
  if ("unavailable" in scale.capped) return { goal, figure: `not run capped (${scale.capped.unavailable})` };
  const { figures, cores } = scale.capped;
  const series = (pick: (figure: ScaleFigure) => number) => figures.map((figure) => pick(figure) / pick(figures[0]));
  const reads = series((figure) => figure.signedRead.requestsPerSecond);
  const creates = series((figure) => figure.createInvoices.requestsPerSecond);
  const grows = (ratios: number[]) => ratios.length > 1 && ratios.every((ratio, index) => index === 0 || (ratio > ratios[index - 1] && ratio >= 0.75 * (index + 1)));
  const format = (ratios: number[]) => ratios.map((ratio) => `${ratio.toFixed(2)}×`).join(" → ");
  return { goal, figure: `reads ${format(reads)}, creations ${format(creates)} (${cores} core each)`, isMet: grows(reads) && grows(creates) };
}

/** The performance issue's goals, each with this run's figure and whether it is met. */
export function listGoals(results: BenchResults): GoalLine[] {
  const { bare, signedRead, createInvoices, singleInsert, webhooks, page, idleRss, memory } = results;
  const clients = `${results.concurrency} clients`;
  const ratio = (result: LoadResult, base: { requestsPerSecond: number }) => result.requestsPerSecond / base.requestsPerSecond;
  const lines: GoalLine[] = [];
  lines.push(
    signedRead && bare
      ? { goal: "signed read ≥ 0.7× bare route", figure: `${ratio(signedRead, bare).toFixed(2)}× (${signedRead.requestsPerSecond.toFixed(0)} vs ${bare.requestsPerSecond.toFixed(0)} req/s)`, isMet: ratio(signedRead, bare) >= 0.7 }
      : { goal: "signed read ≥ 0.7× bare route" },
    signedRead ? { goal: `signed read p99 ≤ 20 ms at ${clients}`, figure: `${signedRead.p99Ms.toFixed(1)} ms`, isMet: signedRead.p99Ms <= 20 } : { goal: "signed read p99 ≤ 20 ms" },
    createInvoices && bare
      ? { goal: "create invoice ≥ 0.5× bare route", figure: `${ratio(createInvoices, bare).toFixed(2)}× (${createInvoices.requestsPerSecond.toFixed(0)} req/s)`, isMet: ratio(createInvoices, bare) >= 0.5 }
      : { goal: "create invoice ≥ 0.5× bare route" },
    createInvoices && singleInsert
      ? {
          goal: "create invoice ≥ 0.3× PostgreSQL single inserts",
          figure: `${ratio(createInvoices, singleInsert).toFixed(2)}× (${singleInsert.requestsPerSecond.toFixed(0)} inserts/s)`,
          isMet: ratio(createInvoices, singleInsert) >= 0.3,
        }
      : { goal: "create invoice ≥ 0.3× PostgreSQL single inserts" },
    createInvoices ? { goal: `create invoice p99 ≤ 50 ms at ${clients}`, figure: `${createInvoices.p99Ms.toFixed(1)} ms`, isMet: createInvoices.p99Ms <= 50 } : { goal: "create invoice p99 ≤ 50 ms" },
    batchLine("payment batch of 5000 ≤ 10 s", 10, results.paymentBatch),
    batchLine("payout batch of 5000 (sandbox) ≤ 30 s", 30, results.payoutBatch),
  );
  if (webhooks) {
    const share = webhooks.withTimeouts.perSecond / webhooks.instant.perSecond;
    lines.push(
      { goal: "webhook delivery ≥ 1000/s", figure: `${webhooks.instant.perSecond.toFixed(0)}/s`, isMet: webhooks.instant.perSecond >= 1000 },
      { goal: "… within 10 % with 10 % of receivers timing out", figure: `${webhooks.withTimeouts.perSecond.toFixed(0)}/s (${share.toFixed(2)}×)`, isMet: share >= 0.9 },
    );
  } else {
    lines.push({ goal: "webhook delivery ≥ 1000/s" }, { goal: "… within 10 % with 10 % of receivers timing out" });
  }
  lines.push(
    page
      ? { goal: "hosted page ≤ 100 kB JavaScript (gzipped)", figure: `${(page.payment.scriptGzipBytes / 1000).toFixed(1)} kB`, isMet: page.payment.scriptGzipBytes <= 100_000 }
      : { goal: "hosted page ≤ 100 kB JavaScript (gzipped)" },
    page ? { goal: "hosted page LCP ≤ 1 s", figure: `${page.payment.lcpP50Ms.toFixed(0)} ms`, isMet: page.payment.lcpP50Ms <= 1000 } : { goal: "hosted page LCP ≤ 1 s" },
    idleRss ? { goal: "memory idle < 400 MB", figure: `${idleRss.totalMb.toFixed(0)} MB (server process ${idleRss.serverMb.toFixed(0)} MB)`, isMet: idleRss.totalMb < 400 } : { goal: "memory idle < 400 MB" },
  );
  if (memory) {
    const slope = `${memory.slopeMbPerMinute >= 0 ? "+" : ""}${memory.slopeMbPerMinute.toFixed(1)} MB/min`;
    const span = memory.seconds >= 600 ? `over ${(memory.seconds / 60).toFixed(0)} min` : `only ${memory.seconds.toFixed(0)} s of load`;
    lines.push(
      memory.growth === undefined
        ? { goal: "memory: no growth over 10 minutes of load", figure: `${slope} (${span}: too short to judge)` }
        : {
            goal: "memory: no growth over 10 minutes of load",
            figure: `${memory.growth >= 0 ? "+" : ""}${(memory.growth * 100).toFixed(1)} % last minute vs second, ${slope} (${span})`,
            isMet: memory.growth <= MEMORY_GROWTH_NOISE,
          },
    );
  } else {
    lines.push({ goal: "memory: no growth over 10 minutes of load" });
  }
  lines.push(scaleLine(results.scale));
  return lines;
}

export function printGoals(results: BenchResults): void {
  console.log("\nGoals (the performance issue's; figures from this run):");
  for (const line of listGoals(results)) {
    const mark = line.isMet === undefined ? "–" : line.isMet ? "✓" : "✗";
    console.log(`  ${mark} ${line.goal.padEnd(50)} ${line.figure ?? "not run"}`);
  }
}
