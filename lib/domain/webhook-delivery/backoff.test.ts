import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_ATTEMPTS, nextWebhookAttemptAt } from "./backoff";

describe("webhook retry schedule", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  it.each([
    [1, 10],
    [2, 20],
    [3, 40],
    [4, 80],
    [5, 160],
    [6, 320],
    [7, 640],
    [8, 1280],
    [9, 2560],
    [10, 3600],
    [11, 3600],
  ])("after failed attempt %i the next is due in %i s", (attempt, seconds) => {
    expect(nextWebhookAttemptAt(attempt, now)!.getTime() - now.getTime()).toBe(seconds * 1000);
  });

  it("stops after the 12th attempt, about 3.4 hours after the first", () => {
    expect(MAX_WEBHOOK_ATTEMPTS).toBe(12);
    expect(nextWebhookAttemptAt(12, now)).toBeNull();
    let total = 0;
    for (let attempt = 1; attempt < 12; attempt++) total += nextWebhookAttemptAt(attempt, now)!.getTime() - now.getTime();
    expect(total / 1000).toBe(12310);
  });
});
