import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { clampEventsLimit, parseEventTypeFilter } from "./list-events";

describe("parseEventTypeFilter", () => {
  it.each([
    ["invoice.paid", { exact: ["invoice.paid"], prefixes: [] }],
    ["invoice.*", { exact: [], prefixes: ["invoice."] }],
    [["payout.confirmed", "wallet.*", "invoice.paid_over"], { exact: ["payout.confirmed", "invoice.paid_over"], prefixes: ["wallet."] }],
  ])("%j → %j", (input, expected) => {
    expect(parseEventTypeFilter(input)).toEqual(expected);
  });

  it.each([["invoice"], ["*"], ["invoice.*.paid"], ["Invoice.paid"], ["invoice.paid%"], ["invoice_paid"], [[]], [Array(21).fill("invoice.paid")]])("refuses %j with event.bad_type", (input) => {
    expect(() => parseEventTypeFilter(input)).toThrow(AppError);
    try {
      parseEventTypeFilter(input);
    } catch (error) {
      expect((error as AppError).code).toBe("event.bad_type");
    }
  });
});

describe("clampEventsLimit", () => {
  it.each([
    [undefined, 20],
    [0, 20],
    [-1, 20],
    [1, 1],
    [37, 37],
    [100, 100],
    [101, 20],
    [2.5, 20],
  ])("%s → %s", (limit, expected) => {
    expect(clampEventsLimit(limit)).toBe(expected);
  });
});

