import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/docs/markdown";
import { inlineSpans, markdownBlocks, plainText } from "./markdown";

const render = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("reading the descriptions' Markdown", () => {
  it.each([
    ["one paragraph over two lines", "First line\nsecond line.", [{ kind: "paragraph", text: "First line second line." }]],
    ["paragraphs split by blank lines", "One.\n\n\nTwo.", [{ kind: "paragraph", text: "One." }, { kind: "paragraph", text: "Two." }]],
    ["a bullet list", "- a\n- b", [{ kind: "bullets", items: ["a", "b"] }]],
    ["a bullet item continued on the next line", "- a\n  still a\n- b", [{ kind: "bullets", items: ["a still a", "b"] }]],
    ["a paragraph followed directly by a list", "Rules:\n- a\n- b", [{ kind: "paragraph", text: "Rules:" }, { kind: "bullets", items: ["a", "b"] }]],
    ["a numbered list", "1. a\n2. b\ncontinued", [{ kind: "numbered", start: 1, items: ["a", "b continued"] }]],
    ["a numbered list that starts later", "3. c\n4. d", [{ kind: "numbered", start: 3, items: ["c", "d"] }]],
    ["a paragraph followed directly by a numbered list", "Steps:\n1. a", [{ kind: "paragraph", text: "Steps:" }, { kind: "numbered", start: 1, items: ["a"] }]],
    ["a wrapped sentence whose line starts with a number", "Valid until the end of\n2030. Then not.", [{ kind: "paragraph", text: "Valid until the end of 2030. Then not." }]],
    [
      "a table, ragged rows fitted to the header",
      "| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 |\n| 4 | 5 | 6 |\nAfter.",
      [
        { kind: "table", header: ["a", "b"], rows: [["1", "2"], ["3", ""], ["4", "5"]] },
        { kind: "paragraph", text: "After." },
      ],
    ],
    ["a table without outer pipes, with an escaped pipe", "a | b\n--- | ---\n`x \\| y` | z", [{ kind: "table", header: ["a", "b"], rows: [["`x | y`", "z"]] }]],
    ["pipes without a delimiter row: not a table", "| a | b |\n| 1 | 2 |", [{ kind: "paragraph", text: "| a | b | | 1 | 2 |" }]],
  ])("%s", (_, text, blocks) => {
    expect(markdownBlocks(text)).toEqual(blocks);
  });

  it("reads inline code, bold and links, and keeps unsafe links as text", () => {
    expect(inlineSpans("Use `amount`, **not** [this](https://x.test) or [that](javascript:alert(1)).")).toEqual([
      { kind: "text", text: "Use " },
      { kind: "code", text: "amount" },
      { kind: "text", text: ", " },
      { kind: "bold", text: "not" },
      { kind: "text", text: " " },
      { kind: "link", text: "this", href: "https://x.test" },
      { kind: "text", text: " or " },
      { kind: "text", text: "that" },
      { kind: "text", text: ")." },
    ]);
    expect(plainText("`currency` (price) **`x`**")).toBe("currency (price) x");
  });
});

describe("the Markdown component", () => {
  it("renders a table with column headers and inline markup in its cells, in a focusable scrolling region named by its introduction", () => {
    const html = render("Modes:\n\n| `currency` | Result |\n|---|---|\n| fiat | **`payment.network_required`** or `x` |");
    expect(html).toContain('<div role="region" aria-label="Modes" tabindex="0"');
    expect(html).toContain("<caption class=\"sr-only\">Modes</caption>");
    expect(html).toMatch(/<th scope="col"[^>]*><code[^>]*>currency<\/code><\/th><th scope="col"[^>]*>Result<\/th>/);
    expect(html).toMatch(/<td[^>]*>fiat<\/td><td[^>]*><strong><code[^>]*>payment.network_required<\/code><\/strong> or <code[^>]*>x<\/code><\/td>/);
  });

  it("names a table without an introduction by its columns", () => {
    expect(render("| `a` | b |\n|---|---|\n| 1 | 2 |")).toContain('aria-label="Table of a, b"');
  });

  it("renders numbered lists as <ol>, with their first number, and bullets as <ul>", () => {
    const html = render("Rules:\n1. one\n2. two `code`\n\n4. four\n\n- dot\n- dash");
    expect(html).toMatch(/<p>Rules:<\/p><ol[^>]*><li[^>]*>one<\/li><li[^>]*>two <code[^>]*>code<\/code><\/li><\/ol>/);
    expect(html).toMatch(/<ol start="4"[^>]*><li[^>]*>four<\/li><\/ol>/);
    expect(html).toMatch(/<ul[^>]*><li>dot<\/li><li>dash<\/li><\/ul>/);
  });

  it("escapes markup in the text, in code and in table cells", () => {
    const html = render('<script>alert(1)</script> `<b>` [x](javascript:alert(1))\n\n| <img src=x onerror=alert(1)> | "q" |\n|---|---|\n| <i>i</i> | & |');
    expect(html).not.toMatch(/<(script|b|img|i)[ >]/);
    expect(html).not.toContain("href=\"javascript");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<code class=\"rounded bg-(--ui-subtle) px-1 py-0.5 font-mono text-[0.9em] break-words\">&lt;b&gt;</code>");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("<td class=\"px-3 py-2\">&lt;i&gt;i&lt;/i&gt;</td><td class=\"px-3 py-2\">&amp;</td>");
  });
});
