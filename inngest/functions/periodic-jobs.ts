import { getApiDeps } from "@/lib/api/deps";
import { PERIODIC_JOBS, type JobDeps, type PeriodicJob } from "@/lib/jobs/catalogue";
import { findNextDeliveryDueAt } from "@/lib/jobs/handlers/deliver-webhooks";
import { BATCH_CREATED_EVENT, inngest, WEBHOOK_RECORDED_EVENT } from "@/lib/jobs/inngest/client";

/** Within one run, the delivery function waits for retries due this soon instead of leaving them to the next cron tick. */
const RETRY_HORIZON_MS = 55_000;
const MAX_PASSES_PER_RUN = 8;

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}

/** One Inngest function per periodic job of the catalogue, on the job's cron. */
export function createPeriodicJobFunction(job: PeriodicJob, getDeps: () => JobDeps = getApiDeps) {
  if (job.name === "webhook.deliver") {
    return inngest.createFunction(
      // One run at a time; the claim makes concurrent runs safe, this only avoids wasted work.
      { id: "webhook-deliver", triggers: [{ cron: job.cron }, { event: WEBHOOK_RECORDED_EVENT }], concurrency: { limit: 1 } },
      async ({ step }) => {
        // Inngest re-runs this function body on every step; the start time must come from a step.
        const startedAt = await step.run("started-at", () => Date.now());
        const passes: unknown[] = [];
        for (let pass = 0; pass < MAX_PASSES_PER_RUN; pass++) {
          passes.push(await step.run(`deliver-${pass}`, async () => plain(await job.run(getDeps()))));
          const nextDue = await step.run(`next-due-${pass}`, async () => (await findNextDeliveryDueAt(getDeps().db))?.toISOString() ?? null);
          if (!nextDue || Date.parse(nextDue) - startedAt > RETRY_HORIZON_MS) break;
          await step.sleepUntil(`wait-${pass}`, new Date(nextDue));
        }
        return passes;
      },
    );
  }
  const triggers = job.name === "batch.process" ? [{ cron: job.cron }, { event: BATCH_CREATED_EVENT }] : [{ cron: job.cron }];
  return inngest.createFunction(
    { id: job.name.replace(/\./g, "-"), triggers, concurrency: { limit: 1 } },
    async ({ step }) => step.run(job.name, async () => plain(await job.run(getDeps()))),
  );
}

export const periodicJobFunctions = PERIODIC_JOBS.map((job) => createPeriodicJobFunction(job));
