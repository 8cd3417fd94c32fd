import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Code in the READMEs and the integrator guide is quoted from client/examples/*.ts, which tsc
// checks: a quote marked `<!-- example: client/examples/x.ts -->` must be that file, word for word.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const READMES = ["README.md", "docs/integrator-guide.md", "client/README.md"];
const QUOTE = /<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g;

describe("README examples", () => {
  const quotes = READMES.flatMap((readme) => [...fs.readFileSync(path.join(root, readme), "utf8").matchAll(QUOTE)].map((match) => ({ readme, file: match[1], quoted: match[2] })));

  it("exist in each of these files", () => {
    expect(new Set(quotes.map((quote) => quote.readme))).toEqual(new Set(READMES));
  });

  it.each(quotes)("$readme quotes $file as it is", ({ file, quoted }) => {
    expect(file).toMatch(/^client\/examples\/[\w-]+\.ts$/);
    expect(quoted).toBe(fs.readFileSync(path.join(root, file), "utf8"));
  });
});
