import { describe, expect, it } from "vitest";
import { decideOutgoingTransfer, isFinalOutgoingStatus, type OutgoingFact, type OutgoingStatus } from "./transition";

const STATUSES: OutgoingStatus[] = ["planned", "signed", "broadcast", "seen", "confirmed", "failed", "replaced"];

describe("decideOutgoingTransfer", () => {
  it.each<[OutgoingStatus, OutgoingFact["kind"], OutgoingStatus | null, boolean, boolean]>([
    ["planned", "signed", "signed", false, false],
    ["planned", "sign_refused", "failed", false, false],
    ["planned", "withdrawn", "failed", false, false],
    ["signed", "withdrawn", null, false, false],
    ["signed", "broadcast_accepted", "broadcast", false, false],
    ["signed", "broadcast_refused", "failed", true, false],
    ["signed", "pending", "seen", false, false],
    ["broadcast", "pending", "seen", false, false],
    ["seen", "confirmed", "confirmed", true, true],
    ["broadcast", "confirmed", "confirmed", true, true],
    ["signed", "confirmed", "confirmed", true, true],
    ["seen", "reverted", "failed", true, true],
    ["broadcast", "dead", "replaced", true, false],
    ["signed", "dead", "replaced", true, false],
    // What does not apply is refused: a signed transfer is never signed anew, a final one never moves.
    ["signed", "signed", null, false, false],
    ["broadcast", "signed", null, false, false],
    ["planned", "broadcast_accepted", null, false, false],
    ["broadcast", "broadcast_refused", null, false, false],
    ["planned", "dead", null, false, false],
    ["confirmed", "dead", null, false, false],
    ["replaced", "confirmed", null, false, false],
    ["failed", "pending", null, false, false],
  ])("%s + %s → %s", (status, fact, next, release, fee) => {
    const decision = decideOutgoingTransfer(status, { kind: fact });
    if (next === null) expect(decision).toBeNull();
    else expect(decision).toEqual({ status: next, shouldReleaseResources: release, shouldBookFee: fee });
  });

  it("never leaves a final status", () => {
    const facts: OutgoingFact["kind"][] = ["signed", "broadcast_accepted", "broadcast_refused", "sign_refused", "withdrawn", "pending", "confirmed", "reverted", "dead"];
    for (const status of STATUSES.filter(isFinalOutgoingStatus)) {
      for (const fact of facts) expect(decideOutgoingTransfer(status, { kind: fact })).toBeNull();
    }
  });
});
