import { describe, expect, it } from "vitest";
import { formatTable } from "./table";

describe("formatTable", () => {
  const columns = [
    { header: "NAME", value: (row: { name: string; amount: string }) => row.name },
    { header: "AMOUNT", value: (row: { name: string; amount: string }) => row.amount, align: "right" as const },
  ];

  it("aligns every column to its widest cell, numbers (and their header) to the right", () => {
    expect(formatTable([{ name: "USDT", amount: "1.5" }, { name: "BTC", amount: "1200.00000001" }], columns)).toBe(
      ["NAME         AMOUNT", "----  -------------", "USDT            1.5", "BTC   1200.00000001"].join("\n"),
    );
  });

  it("says so when there are no rows", () => {
    expect(formatTable([], columns)).toBe("(none)");
    expect(formatTable([], columns, "(no merchants)")).toBe("(no merchants)");
  });

  it("trims the padding of the last column", () => {
    const text = formatTable([{ name: "a", amount: "1" }], [columns[1], columns[0]]);
    expect(text.split("\n").every((line) => line === line.trimEnd())).toBe(true);
  });
});
