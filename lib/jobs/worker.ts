import { log, withLogContext } from "@/lib/log";
import { PERIODIC_JOBS, toDeliveryDeps, type JobDeps, type PeriodicJob } from "./catalogue";
import { onBatchCreated, onDeliveriesRecorded } from "@/lib/db/work-signals";
import { startWebhookDispatcher, type DispatcherOptions } from "./webhook-dispatcher";

export interface RunningWorker {
  stop(): Promise<void>;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = { concurrency: 32, perMerchantConcurrency: 4, pollIntervalMs: 1000 };

/**
 * The built-in worker: runs the periodic jobs of the catalogue in this process (one run of a
 * job at a time; a tick that finds the previous run still going is skipped), and webhook
 * delivery as a continuous dispatcher woken when deliveries are recorded here. Every job is
 * idempotent over durable state, so several processes may run side by side against one
 * database and a crash loses nothing.
 */
export function startBuiltinWorker(deps: JobDeps, dispatcherOptions: DispatcherOptions = DEFAULT_DISPATCHER_OPTIONS): RunningWorker {
  const dispatcher = startWebhookDispatcher(toDeliveryDeps(deps), dispatcherOptions);
  const running = new Map<string, Promise<unknown>>();
  let isStopped = false;
  const runJob = (job: PeriodicJob) => {
    if (isStopped || running.has(job.name)) return;
    // Every line a job's run logs carries `job`.
    const execution = withLogContext({ job: job.name }, () => job.run(deps))
      .catch((error) => log.error("periodic job failed", { job: job.name, error }))
      .finally(() => running.delete(job.name));
    running.set(job.name, execution);
  };
  const jobs = PERIODIC_JOBS.filter((job) => job.name !== "webhook.deliver");
  const timers = jobs.map((job) => setInterval(() => runJob(job), job.everySeconds * 1000));
  jobs.filter((job) => job.runsAtStart).forEach(runJob);
  const batchJob = jobs.find((job) => job.name === "batch.process");
  const unsubscribe = [onDeliveriesRecorded(() => dispatcher.wake()), onBatchCreated(() => batchJob && runJob(batchJob))];
  return {
    async stop() {
      isStopped = true;
      unsubscribe.forEach((off) => off());
      timers.forEach(clearInterval);
      await dispatcher.stop();
      await Promise.allSettled([...running.values()]);
    },
  };
}
