/**
 * The Markdown of the document's descriptions, read into plain data for the reference page:
 * paragraphs, bullet and numbered lists, GitHub-style tables, and inside them `code`, **bold**
 * (which may hold `code`) and [links](…). Anything else stays text.
 */
export type MarkdownBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "bullets"; items: string[] }
  | { kind: "numbered"; start: number; items: string[] }
  | { kind: "table"; header: string[]; rows: string[][] };

export type InlineSpan = { kind: "text" | "code" | "bold"; text: string } | { kind: "link"; text: string; href: string };

const BULLET = /^[-*+]\s+(.*)$/;
const NUMBERED = /^(\d{1,9})[.)]\s+(.*)$/;
const DELIMITER_CELL = /^:?-+:?$/;

export function markdownBlocks(text: string): MarkdownBlock[] {
  const lines = text.trim().replace(/\r\n?/g, "\n").split("\n");
  const blocks: MarkdownBlock[] = [];
  // The block that the next line may continue; a blank line ends it.
  let open: MarkdownBlock | undefined;
  const start = (block: MarkdownBlock) => {
    blocks.push(block);
    open = block;
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].trim();
    if (line === "") {
      open = undefined;
      continue;
    }
    if (open?.kind === "table" && line.includes("|")) {
      open.rows.push(fitToWidth(cellsOf(line), open.header.length));
      continue;
    }
    const header = cellsOf(line);
    const delimiter = index + 1 < lines.length ? cellsOf(lines[index + 1].trim()) : [];
    if (line.includes("|") && delimiter.length === header.length && delimiter.every((cell) => DELIMITER_CELL.test(cell))) {
      start({ kind: "table", header, rows: [] });
      index++;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      if (open?.kind === "bullets") open.items.push(bullet[1]);
      else start({ kind: "bullets", items: [bullet[1]] });
      continue;
    }
    const numbered = NUMBERED.exec(line);
    // As in CommonMark, only a list that starts at 1 may interrupt a paragraph: a wrapped line
    // that happens to begin with "2024. " stays part of its sentence.
    if (numbered && (open?.kind !== "paragraph" || numbered[1] === "1")) {
      if (open?.kind === "numbered") open.items.push(numbered[2]);
      else start({ kind: "numbered", start: Number(numbered[1]), items: [numbered[2]] });
      continue;
    }
    if (open?.kind === "bullets" || open?.kind === "numbered") {
      // A line without a marker right under an item continues that item.
      open.items[open.items.length - 1] += ` ${line}`;
    } else if (open?.kind === "paragraph") {
      open.text += ` ${line}`;
    } else {
      start({ kind: "paragraph", text: line });
    }
  }
  return blocks;
}

/** The cells of a table row: pipes split them unless escaped (`\|`), as GitHub reads them, even inside `code`. */
function cellsOf(line: string): string[] {
  const cells = [""];
  for (let index = 0; index < line.length; index++) {
    if (line[index] === "\\" && line[index + 1] === "|") {
      cells[cells.length - 1] += "|";
      index++;
    } else if (line[index] === "|") {
      cells.push("");
    } else {
      cells[cells.length - 1] += line[index];
    }
  }
  if (line.startsWith("|")) cells.shift();
  if (line.endsWith("|") && !line.endsWith("\\|")) cells.pop();
  return cells.map((cell) => cell.trim());
}

/** A body row has exactly the header's cells: missing ones are empty, extra ones dropped. */
function fitToWidth(cells: string[], width: number): string[] {
  return Array.from({ length: width }, (_, index) => cells[index] ?? "");
}

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
// Only addresses that cannot run script become links (no `javascript:` and the like).
const SAFE_HREF = /^(https?:\/\/|\/|#)/;

export function inlineSpans(text: string): InlineSpan[] {
  const spans: InlineSpan[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) spans.push({ kind: "text", text: text.slice(last, match.index) });
    const [, code, bold, label, href] = match;
    if (code !== undefined) spans.push({ kind: "code", text: code });
    else if (bold !== undefined) spans.push({ kind: "bold", text: bold });
    else if (SAFE_HREF.test(href)) spans.push({ kind: "link", text: label, href });
    else spans.push({ kind: "text", text: label });
    last = match.index + match[0].length;
  }
  if (last < text.length) spans.push({ kind: "text", text: text.slice(last) });
  return spans;
}

/** The text without its markup, for labels: "`currency` (price)" → "currency (price)". */
export function plainText(text: string): string {
  return inlineSpans(text)
    .map((span) => (span.kind === "bold" ? plainText(span.text) : span.text))
    .join("");
}
