import type { FieldRow } from "@/lib/openapi/reference";
import { FOCUS_RING } from "@/components/ui/theme";
import { Markdown } from "./markdown";

/** A schema's fields: name (indented by nesting), type, required, description and limits. */
export function FieldTable({ caption, rows }: { caption: string; rows: FieldRow[] }) {
  if (rows.length === 0) return <p className="mt-2 text-sm text-(--ui-muted)">{caption}: no fields.</p>;
  return (
    // Wider than a phone: the region scrolls sideways, so a keyboard must be able to reach it.
    <div role="region" aria-label={caption} tabIndex={0} className={`mt-2 overflow-x-auto rounded-lg border border-(--ui-border) ${FOCUS_RING}`}>
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-(--ui-subtle) text-(--ui-muted)">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Field
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Type
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Description
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className="border-t border-(--ui-border) align-top">
              <th scope="row" className="px-3 py-2 font-normal" style={{ paddingLeft: `${0.75 + row.depth * 1}rem` }}>
                <code className="font-mono text-[0.85rem] break-all">{row.name.split(".").pop()}</code>
                {row.isRequired ? <span className="ml-2 text-xs font-medium text-(--ui-warn)">required</span> : null}
              </th>
              <td className="px-3 py-2">
                <Markdown text={row.type} />
              </td>
              <td className="px-3 py-2">
                {row.description ? <Markdown text={row.description} /> : null}
                {row.constraints ? <p className="mt-1 text-xs text-(--ui-muted)">{row.constraints}</p> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
