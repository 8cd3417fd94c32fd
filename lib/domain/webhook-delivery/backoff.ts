/** spec: Events — 12 attempts, then `dead`. */
export const MAX_WEBHOOK_ATTEMPTS = 12;
const FIRST_DELAY_SECONDS = 10;
const MAX_DELAY_SECONDS = 3600;

/**
 * When the next attempt is due after `attempt` (1-based) failed: 10 s, doubling, capped at
 * 1 hour; null when that was the last attempt.
 */
export function nextWebhookAttemptAt(attempt: number, now: Date): Date | null {
  if (attempt >= MAX_WEBHOOK_ATTEMPTS) return null;
  const delaySeconds = Math.min(FIRST_DELAY_SECONDS * 2 ** (attempt - 1), MAX_DELAY_SECONDS);
  return new Date(now.getTime() + delaySeconds * 1000);
}
