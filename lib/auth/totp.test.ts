import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { matchTotp, newTotpSecret } from "./totp";

describe("matchTotp", () => {
  const secret = newTotpSecret();
  const now = new Date(Date.UTC(2026, 10, 26, 12, 0, 10));
  const step = BigInt(Math.floor(now.getTime() / 30_000));
  const codeAt = (offsetSteps: number) => generate({ secret, epoch: Number(step + BigInt(offsetSteps)) * 30 });

  it("takes the current step's code and one step either side, and answers the step it matched", async () => {
    expect(await matchTotp(secret, await codeAt(0), now, null)).toBe(step);
    expect(await matchTotp(secret, await codeAt(-1), now, null)).toBe(step - 1n);
    expect(await matchTotp(secret, await codeAt(1), now, null)).toBe(step + 1n);
    expect(await matchTotp(secret, await codeAt(2), now, null)).toBeNull();
    expect(await matchTotp(secret, "12345", now, null)).toBeNull();
  });

  it("refuses a step at or before the last one taken", async () => {
    expect(await matchTotp(secret, await codeAt(0), now, step)).toBeNull();
    expect(await matchTotp(secret, await codeAt(1), now, step)).toBe(step + 1n);
  });

  it("says no, without throwing, when the last step taken is ahead of the clock (a clock set back)", async () => {
    expect(await matchTotp(secret, await codeAt(0), now, step + 1n)).toBeNull();
    expect(await matchTotp(secret, await codeAt(0), now, step + 40n)).toBeNull();
  });
});
