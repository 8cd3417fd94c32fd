import type { ReactNode } from "react";
import { TEXT_LINK } from "@/components/ui/theme";

/**
 * The little Markdown the API document uses — paragraphs, bullet lists, `code`, **bold** and
 * [links](…) — rendered as React elements (so nothing in the text can become markup).
 */
export function Markdown({ text, className = "" }: { text: string; className?: string }) {
  const blocks = text.trim().split(/\n{2,}/);
  return (
    <div className={`space-y-3 ${className}`}>
      {blocks.map((block, index) => {
        const lines = block.split("\n");
        if (lines.every((line) => line.startsWith("- "))) {
          return (
            <ul key={index} className="list-disc space-y-1 pl-5">
              {lines.map((line, item) => (
                <li key={item}>{inline(line.slice(2))}</li>
              ))}
            </ul>
          );
        }
        return <p key={index}>{inline(lines.join(" "))}</p>;
      })}
    </div>
  );
}

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const [, code, bold, label, href] = match;
    if (code !== undefined) {
      parts.push(
        <code key={match.index} className="rounded bg-(--ui-subtle) px-1 py-0.5 font-mono text-[0.9em] break-words">
          {code}
        </code>,
      );
    } else if (bold !== undefined) {
      parts.push(<strong key={match.index}>{bold}</strong>);
    } else if (/^(https?:\/\/|\/|#)/.test(href)) {
      parts.push(
        <a key={match.index} href={href} className={TEXT_LINK}>
          {label}
        </a>,
      );
    } else {
      parts.push(label);
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
