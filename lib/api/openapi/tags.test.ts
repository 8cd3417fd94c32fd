import { describe, expect, it } from "vitest";
import { OPERATIONS } from "@/lib/api/operations";
import { tagOf, TAGS } from "./tags";

describe("the document's sections", () => {
  // Paths that start with the prefix of more than one section: the longest prefix decides.
  it.each([
    ["/v1/payment", "Invoices"],
    ["/v1/payment/list", "Invoices"],
    ["/v1/payment/link", "Payment links"],
    ["/v1/payment/link/list", "Payment links"],
    ["/v1/payment/refund", "Refunds"],
    ["/v1/payment/resolve", "Refunds"],
    ["/v1/payment/autorefund/set", "Refunds"],
    ["/v1/payment/batch", "Batches"],
    ["/v1/payment/services", "Catalogue"],
    ["/v1/payment/testing-webhook", "Webhooks"],
    ["/v1/payout", "Payouts"],
    ["/v1/payout/link", "Payout links"],
    ["/v1/payout/link/batch", "Payout links"],
    ["/v1/payout/services", "Catalogue"],
    ["/v1/claim/{token}", "Payout links"],
  ])("puts %s under %s", (path, tag) => {
    expect(tagOf(path)).toBe(tag);
  });

  it("refuses a path no section covers", () => {
    expect(() => tagOf("/v1/unknown")).toThrow(/No section/);
  });

  it("gives every operation a section, and every section but the webhook events an operation", () => {
    const used = new Set(OPERATIONS.map((entry) => tagOf(entry.path)));
    expect(TAGS.map((tag) => tag.name).filter((name) => !used.has(name))).toEqual(["Webhook events"]);
  });
});
