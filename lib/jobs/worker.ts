import type { Db } from "@/lib/db/client";
import { purgeIdempotencyRecords } from "@/lib/api/idempotency";
import { log } from "@/lib/log";

export interface RunningWorker {
  stop(): Promise<void>;
}

interface PeriodicTask {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/**
 * The built-in worker: runs the periodic jobs in this process. Each run is idempotent over
 * durable state, so several processes may run them side by side and a crash loses nothing.
 */
export function startBuiltinWorker(deps: { db: Db; now: () => Date }): RunningWorker {
  const tasks: PeriodicTask[] = [
    { name: "idempotency.purge", everyMs: 10 * 60_000, run: () => purgeIdempotencyRecords(deps.db, deps.now()) },
  ];
  const running = new Set<Promise<unknown>>();
  const timers = tasks.map((task) =>
    setInterval(() => {
      const execution = task
        .run()
        .catch((error) => log.error("periodic task failed", { task: task.name, error }))
        .finally(() => running.delete(execution));
      running.add(execution);
    }, task.everyMs),
  );
  return {
    async stop() {
      timers.forEach(clearInterval);
      await Promise.allSettled([...running]);
    },
  };
}
