import { AsyncLocalStorage } from "node:async_hooks";

/** Fields every line carries while one unit of work runs: a request's `request_id` and `merchant_id`, a job's `job`. */
export type LogContext = Record<string, string | number | null>;

const storage = new AsyncLocalStorage<LogContext>();

/**
 * Runs `work` in a fresh log context: every line logged by it, and by whatever it starts
 * (promises, timers), carries `fields`. A fresh one, not an extension of the caller's, so that
 * work started from a request but living on (a job) is not mistaken for the request.
 */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  return storage.run({ ...fields }, work);
}

/** Adds fields learnt along the way (the merchant, once authenticated) to the current context; no-op outside one. */
export function addLogContext(fields: LogContext): void {
  const context = storage.getStore();
  if (context) Object.assign(context, fields);
}

/** A copy of the current context's fields (empty outside one). */
export function currentLogContext(): LogContext {
  const context = storage.getStore();
  return context ? { ...context } : {};
}
