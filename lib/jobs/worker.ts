import { log } from "@/lib/log";
import { PERIODIC_JOBS, toDeliveryDeps, type JobDeps } from "./catalogue";
import { onDeliveriesRecorded } from "./notify";
import { startWebhookDispatcher, type DispatcherOptions } from "./webhook-dispatcher";

export interface RunningWorker {
  stop(): Promise<void>;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = { concurrency: 32, perMerchantConcurrency: 4, pollIntervalMs: 1000 };

/**
 * The built-in worker: runs the periodic jobs of the catalogue in this process, and webhook
 * delivery as a continuous dispatcher (woken at once when deliveries are recorded here).
 * Every job is idempotent over durable state, so several processes may run side by side
 * against one database and a crash loses nothing.
 */
export function startBuiltinWorker(deps: JobDeps, dispatcherOptions: DispatcherOptions = DEFAULT_DISPATCHER_OPTIONS): RunningWorker {
  const dispatcher = startWebhookDispatcher(toDeliveryDeps(deps), dispatcherOptions);
  const unsubscribe = onDeliveriesRecorded(() => dispatcher.wake());
  const running = new Set<Promise<unknown>>();
  const timers = PERIODIC_JOBS.filter((job) => job.name !== "webhook.deliver").map((job) =>
    setInterval(() => {
      const execution = job
        .run(deps)
        .catch((error) => log.error("periodic job failed", { job: job.name, error }))
        .finally(() => running.delete(execution));
      running.add(execution);
    }, job.everySeconds * 1000),
  );
  return {
    async stop() {
      unsubscribe();
      timers.forEach(clearInterval);
      await dispatcher.stop();
      await Promise.allSettled([...running]);
    },
  };
}
