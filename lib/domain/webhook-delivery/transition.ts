import { MAX_WEBHOOK_ATTEMPTS, nextWebhookAttemptAt } from "./backoff";

/** Where a webhook delivery stands. */
export type DeliveryStatus =
  /** Waiting for its next attempt (or being attempted under a lease). */
  | "pending"
  /** The endpoint answered 2xx. */
  | "delivered"
  /** Every attempt failed: kept for the deliveries log and a manual resend. */
  | "dead";

/** What a delivery becomes after attempt number `attempt` (1-based) ended, and when to try again. */
export interface DeliveryDecision {
  status: DeliveryStatus;
  /** Due time of the next attempt; `now` when there is none. */
  nextAttemptAt: Date;
}

/**
 * The delivery lifecycle: an attempt that reached a 2xx is delivered; a failed one waits on the
 * backoff schedule (10 s doubling to 1 h), and after the last of MAX_WEBHOOK_ATTEMPTS it is dead.
 */
export function decideDeliveryAttempt(attempt: number, isDelivered: boolean, now: Date): DeliveryDecision {
  if (isDelivered) return { status: "delivered", nextAttemptAt: now };
  const next = nextWebhookAttemptAt(attempt, now);
  return next && attempt < MAX_WEBHOOK_ATTEMPTS ? { status: "pending", nextAttemptAt: next } : { status: "dead", nextAttemptAt: now };
}
