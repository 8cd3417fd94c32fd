import { describe, expect, it } from "vitest";
import { refundableMinor, refundedMinor, refundSummary } from "./refundable";

const refund = (status: string, requestedAmount: string) => ({ status, requestedAmount });

describe("refunds of a payment", () => {
  it("count every refund but the failed and cancelled ones", () => {
    expect(refundedMinor([refund("confirmed", "300"), refund("pending", "200"), refund("failed", "1000"), refund("cancelled", "50")])).toBe(500n);
  });

  it("leave what was received minus what counts, never below zero", () => {
    expect(refundableMinor(1000n, [refund("sent", "400")])).toBe(600n);
    expect(refundableMinor(1000n, [refund("sent", "400"), refund("failed", "600")])).toBe(600n);
    expect(refundableMinor(1000n, [refund("confirmed", "1200")])).toBe(0n);
  });

  it("summarise as none, partial or full", () => {
    expect(refundSummary(1000n, [])).toBe("none");
    expect(refundSummary(1000n, [refund("cancelled", "1000")])).toBe("none");
    expect(refundSummary(1000n, [refund("approved", "999")])).toBe("partial");
    expect(refundSummary(1000n, [refund("confirmed", "1000")])).toBe("full");
  });
});
