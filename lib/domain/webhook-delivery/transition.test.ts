import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_ATTEMPTS } from "./backoff";
import { decideDeliveryAttempt } from "./transition";

const now = new Date("2026-06-01T12:00:00Z");
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe("decideDeliveryAttempt", () => {
  it.each([
    [1, true, "delivered", now],
    [12, true, "delivered", now],
    [1, false, "pending", at(10)],
    [2, false, "pending", at(20)],
    [9, false, "pending", at(2560)],
    [10, false, "pending", at(3600)],
    [11, false, "pending", at(3600)],
    [MAX_WEBHOOK_ATTEMPTS, false, "dead", now],
  ] as const)("attempt %i, delivered %s → %s", (attempt, isDelivered, status, nextAttemptAt) => {
    expect(decideDeliveryAttempt(attempt, isDelivered, now)).toEqual({ status, nextAttemptAt });
  });
});
