/** One column of a table for people: its header, how a row shows in it, and its alignment. */
export interface Column<Row> {
  header: string;
  value(row: Row): string;
  /** Amounts and counts read best right-aligned. */
  align?: "left" | "right";
}

/**
 * Rows as an aligned text table: a header line, a rule, then one line per row; `empty` when
 * there are none. Trailing spaces are trimmed so that copied output stays clean.
 */
export function formatTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[], empty = "(none)"): string {
  if (rows.length === 0) return empty;
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((line) => line[index].length)));
  const render = (line: readonly string[]) =>
    line
      .map((cell, index) => (columns[index].align === "right" ? cell.padStart(widths[index]) : cell.padEnd(widths[index])))
      .join("  ")
      .trimEnd();
  return [render(columns.map((column) => column.header)), render(widths.map((width) => "-".repeat(width))), ...cells.map(render)].join("\n");
}
