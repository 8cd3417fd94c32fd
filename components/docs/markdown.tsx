import type { ReactNode } from "react";
import { TEXT_LINK } from "@/components/ui/theme";
import { inlineSpans, markdownBlocks, plainText, type MarkdownBlock } from "@/lib/api/openapi/markdown";
import { DocTable, DocTableRow } from "./doc-table";

/**
 * The Markdown of the API document (see lib/api/openapi/markdown.ts for what it reads), rendered as
 * React elements, so nothing in the text can become markup.
 */
export function Markdown({ text, className = "" }: { text: string; className?: string }) {
  const blocks = markdownBlocks(text);
  return (
    <div className={`space-y-3 ${className}`}>
      {blocks.map((block, index) => {
        switch (block.kind) {
          case "paragraph":
            return <p key={index}>{inline(block.text)}</p>;
          case "bullets":
            return (
              <ul key={index} className="list-disc space-y-1 pl-5">
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>{inline(item)}</li>
                ))}
              </ul>
            );
          case "numbered":
            return (
              <ol key={index} start={block.start === 1 ? undefined : block.start} className="list-decimal space-y-1 pl-6">
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex} className="pl-1">
                    {inline(item)}
                  </li>
                ))}
              </ol>
            );
          case "table":
            return (
              <DocTable key={index} caption={tableCaption(block, blocks[index - 1])} columns={block.header.map(inline)} minWidth={`${block.header.length * 10}rem`}>
                {block.rows.map((row, rowIndex) => (
                  <DocTableRow key={rowIndex}>
                    {row.map((cell, cellIndex) => (
                      <td key={cellIndex} className="px-3 py-2">
                        {inline(cell)}
                      </td>
                    ))}
                  </DocTableRow>
                ))}
              </DocTable>
            );
        }
      })}
    </div>
  );
}

/** A table's name: the paragraph that introduces it ("Currency and network modes:"), else its columns. */
function tableCaption(table: Extract<MarkdownBlock, { kind: "table" }>, previous: MarkdownBlock | undefined): string {
  if (previous?.kind === "paragraph" && previous.text.endsWith(":")) return plainText(previous.text.slice(0, -1));
  return `Table of ${table.header.map(plainText).join(", ")}`;
}

function inline(text: string): ReactNode[] {
  return inlineSpans(text).map((span, index) => {
    switch (span.kind) {
      case "text":
        return span.text;
      case "code":
        return (
          <code key={index} className="rounded bg-(--ui-subtle) px-1 py-0.5 font-mono text-[0.9em] break-words">
            {span.text}
          </code>
        );
      case "bold":
        return <strong key={index}>{inline(span.text)}</strong>;
      case "link":
        return (
          <a key={index} href={span.href} className={TEXT_LINK}>
            {span.text}
          </a>
        );
    }
  });
}
