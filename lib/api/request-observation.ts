import { log } from "@/lib/log";
import type { OperationEntry } from "./operation";

/** What one request came to, before it becomes an answer: what logs, metrics and the contract check read. */
export interface RequestOutcome {
  status: number;
  bodyText: string;
  headers: Record<string, string>;
  /** The operation called; null when no operation matched. */
  entry: OperationEntry | null;
  merchantId: string | null;
  /** The error code answered, `request.rate_limited` for a 429, null for a success. */
  code: string | null;
  /** An unexpected failure behind a 5xx, for the log. */
  error?: unknown;
}

/** Told of every request once it is answered: logs, metrics and the contract check. */
export type RequestObserver = (observation: RequestObservation) => void;

export interface RequestObservation extends RequestOutcome {
  requestId: string;
  method: string;
  /** The path as logs may keep it (a claim token never appears). */
  path: string;
  clientIp: string;
  durationMs: number;
}

const observers: RequestObserver[] = [];

/** Adds a listener told of every answered request; returns the function that removes it. */
export function observeRequests(observer: RequestObserver): () => void {
  observers.push(observer);
  return () => {
    const index = observers.indexOf(observer);
    if (index >= 0) observers.splice(index, 1);
  };
}

/** Tells every observer of an answered request; an observer that fails is logged, never the request's concern. */
export function tellObservers(observation: RequestObservation): void {
  for (const observer of observers) {
    try {
      observer(observation);
    } catch (error) {
      log.error("request observer failed", { request_id: observation.requestId, error });
    }
  }
}
