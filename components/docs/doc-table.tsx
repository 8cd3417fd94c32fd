import type { ReactNode } from "react";
import { FOCUS_RING } from "@/components/ui/theme";

/**
 * A table of the reference page. Tables are wider than a phone, so each scrolls sideways in a
 * region of its own, which a keyboard must be able to reach and scroll: hence the tab stop.
 */
export function DocTable({
  caption,
  columns,
  minWidth,
  className = "",
  children,
}: {
  /** Names the region and the table. */
  caption: string;
  columns: readonly ReactNode[];
  /** Below this width the region scrolls rather than squeezing the columns, e.g. "36rem". */
  minWidth: string;
  className?: string;
  /** The body rows, each a `DocTableRow`. */
  children: ReactNode;
}) {
  return (
    <div role="region" aria-label={caption} tabIndex={0} className={`overflow-x-auto rounded-lg border border-(--ui-border) ${FOCUS_RING} ${className}`}>
      <table className="w-full text-left text-sm" style={{ minWidth }}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-(--ui-subtle) text-(--ui-muted)">
          <tr>
            {columns.map((column, index) => (
              // The header row is code-coloured already: `code` keeps only its font, in line with the words around it.
              <th key={index} scope="col" className="px-3 py-2 font-medium [&_code]:bg-transparent [&_code]:px-0">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function DocTableRow({ children }: { children: ReactNode }) {
  return <tr className="border-t border-(--ui-border) align-top">{children}</tr>;
}
