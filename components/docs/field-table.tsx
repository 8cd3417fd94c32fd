import type { FieldRow } from "@/lib/api/openapi/reference";
import { DocTable, DocTableRow } from "./doc-table";
import { Markdown } from "./markdown";

/** A schema's fields: name (indented by nesting), type, required, description and limits. */
export function FieldTable({ caption, rows }: { caption: string; rows: FieldRow[] }) {
  if (rows.length === 0) return <p className="mt-2 text-sm text-(--ui-muted)">{caption}: no fields.</p>;
  return (
    <DocTable caption={caption} columns={["Field", "Type", "Description"]} minWidth="36rem" className="mt-2">
      {rows.map((row) => (
        <DocTableRow key={row.name}>
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
        </DocTableRow>
      ))}
    </DocTable>
  );
}
