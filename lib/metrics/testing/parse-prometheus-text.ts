/** One sample of a scrape. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusScrape {
  /** Family name → declared type. */
  types: Map<string, string>;
  help: Map<string, string>;
  samples: PrometheusSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const SUFFIXES: Record<string, readonly string[]> = { histogram: ["_bucket", "_sum", "_count"], summary: ["_sum", "_count", ""] };

/**
 * Parses the Prometheus text exposition format (version 0.0.4) strictly: a line that does not
 * follow it, a sample of an undeclared family or a histogram bucket without `le` throws.
 */
export function parsePrometheusText(text: string): PrometheusScrape {
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  const samples: PrometheusSample[] = [];
  text.split("\n").forEach((line, index) => {
    const where = `line ${index + 1}: ${line}`;
    if (line === "") return;
    if (line.startsWith("#")) {
      const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!meta) return; // a plain comment
      const [, kind, name, rest] = meta;
      if (!NAME.test(name)) throw new Error(`bad metric name, ${where}`);
      if (kind === "TYPE") {
        if (!TYPES.has(rest)) throw new Error(`bad type, ${where}`);
        if (types.has(name)) throw new Error(`type declared twice, ${where}`);
        types.set(name, rest);
      } else help.set(name, rest.replace(/\\n/g, "\n").replace(/\\\\/g, "\\"));
      return;
    }
    const sample = parseSample(line, where);
    const family = familyOf(sample.name, types);
    if (!family) throw new Error(`sample of an undeclared family, ${where}`);
    if (types.get(family) === "histogram" && sample.name.endsWith("_bucket") && sample.labels.le === undefined) throw new Error(`bucket without le, ${where}`);
    samples.push(sample);
  });
  return { types, help, samples };
}

function familyOf(sampleName: string, types: Map<string, string>): string | null {
  if (types.has(sampleName) && !SUFFIXES[types.get(sampleName)!]) return sampleName;
  for (const [family, type] of types) {
    for (const suffix of SUFFIXES[type] ?? []) if (sampleName === family + suffix) return family;
  }
  return null;
}

function parseSample(line: string, where: string): PrometheusSample {
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
  if (!head) throw new Error(`bad sample, ${where}`);
  const name = head[1];
  let position = name.length;
  const labels: Record<string, string> = {};
  if (line[position] === "{") {
    position++;
    while (line[position] !== "}") {
      const labelMatch = /^([^=]+)="/.exec(line.slice(position));
      if (!labelMatch || !LABEL_NAME.test(labelMatch[1])) throw new Error(`bad label, ${where}`);
      position += labelMatch[0].length;
      let value = "";
      for (;;) {
        const character = line[position++];
        if (character === undefined) throw new Error(`unterminated label value, ${where}`);
        if (character === '"') break;
        if (character === "\\") {
          const escaped = line[position++];
          if (escaped === "n") value += "\n";
          else if (escaped === "\\" || escaped === '"') value += escaped;
          else throw new Error(`bad escape, ${where}`);
        } else value += character;
      }
      if (labelMatch[1] in labels) throw new Error(`label repeated, ${where}`);
      labels[labelMatch[1]] = value;
      if (line[position] === ",") position++;
      else if (line[position] !== "}") throw new Error(`bad label list, ${where}`);
    }
    position++;
  }
  const rest = /^ (\S+)(?: (-?\d+))?$/.exec(line.slice(position));
  if (!rest) throw new Error(`bad value, ${where}`);
  const value = parseValue(rest[1]);
  if (value === null) throw new Error(`bad value, ${where}`);
  return { name, labels, value };
}

/** A sample value as Prometheus reads it (Go's ParseFloat: special values in any case; prom-client writes "Nan"). */
function parseValue(text: string): number | null {
  const special = text.toLowerCase();
  if (special === "nan") return NaN;
  if (special === "+inf" || special === "inf") return Infinity;
  if (special === "-inf") return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return null;
  return Number(text);
}

/** The value of the one sample with exactly these labels (undefined when there is none). */
export function sampleValue(scrape: PrometheusScrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  const found = scrape.samples.filter(
    (sample) => sample.name === name && Object.keys(sample.labels).length === wanted.length && wanted.every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} has ${found.length} samples with labels ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
