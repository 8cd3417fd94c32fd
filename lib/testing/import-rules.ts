import fs from "node:fs";
import path from "node:path";

/**
 * The layer map: an area may import from its own area and from areas of a lower layer, never
 * from one of the same layer or above. Read from the bottom: errors and the pure domain know
 * nothing; services know the infrastructure below them; the surfaces (API, cabinet, jobs) know
 * services; the entry points (routes, the CLI, Inngest functions, the process runtime) know
 * everything. Test code (`testing/` folders, `*.test.ts`) may import anything and is imported by
 * test code only.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["generated"],
  ["lib/errors", "lib/catalogue"],
  ["lib/domain"],
  ["lib/i18n", "lib/html", "lib/qr", "lib/net", "lib/rates", "lib/log"],
  ["lib/config"],
  ["lib/crypto"],
  ["lib/db"],
  ["lib/ledger", "lib/webhooks", "lib/chains", "lib/email", "lib/auth"],
  ["lib/api/serialize", "lib/api/requests"],
  ["lib/deps"],
  ["lib/services", "lib/metrics"],
  ["lib/jobs"],
  ["lib/api"],
  ["lib/cabinet"],
  ["components"],
  ["lib/runtime"],
  ["inngest"],
  ["app", "lib/cli"],
];

/** The area a repository path belongs to, or null for files outside the map (the client package, configuration). */
export function areaOf(file: string): string | null {
  const parts = file.split("/");
  if (parts[0] === "lib") {
    if (parts.length < 3) return null;
    if (parts[1] === "api" && (parts[2] === "serialize" || parts[2] === "requests")) return `lib/api/${parts[2]}`;
    return `lib/${parts[1]}`;
  }
  return ["app", "components", "inngest", "generated"].includes(parts[0]) ? parts[0] : null;
}

export function isTestCode(file: string): boolean {
  return /\.(test|spec)(\.tsx?)?$/.test(file) || file.split("/").includes("testing");
}

export interface ImportEdge {
  from: string;
  to: string;
}

export interface ImportRuleReport {
  /** Imports of an area of the same or a higher layer, or of an area the map does not place. */
  upward: ImportEdge[];
  /** Production code importing test code. */
  intoTests: ImportEdge[];
  /** Groups of production files that import each other in a ring, each sorted. */
  fileCycles: string[][];
  /** Groups of service folders (lib/services/<folder>) that import each other in a ring. */
  serviceFolderCycles: string[][];
}

/** Checks production imports against the layer map and for cycles. Edges are repository paths without extension. */
export function checkImports(edges: ImportEdge[], layers: readonly (readonly string[])[] = LAYERS): ImportRuleReport {
  const layerOf = new Map<string, number>();
  layers.forEach((areas, index) => areas.forEach((area) => layerOf.set(area, index)));
  const production = edges.filter((edge) => !isTestCode(edge.from));
  const upward: ImportEdge[] = [];
  const intoTests: ImportEdge[] = [];
  for (const edge of production) {
    if (isTestCode(edge.to)) {
      intoTests.push(edge);
      continue;
    }
    const fromArea = areaOf(edge.from);
    const toArea = areaOf(edge.to);
    if (fromArea === null || toArea === null || fromArea === toArea) continue;
    const fromLayer = layerOf.get(fromArea);
    const toLayer = layerOf.get(toArea);
    if (fromLayer === undefined || toLayer === undefined || toLayer >= fromLayer) upward.push(edge);
  }
  const serviceFolder = (file: string) => (file.startsWith("lib/services/") ? file.split("/").slice(0, 3).join("/") : null);
  const folderEdges = production.flatMap((edge) => {
    const from = serviceFolder(edge.from);
    const to = serviceFolder(edge.to);
    return from && to && from !== to ? [{ from, to }] : [];
  });
  return { upward, intoTests, fileCycles: findCycles(production), serviceFolderCycles: findCycles(folderEdges) };
}

/** Strongly connected groups of more than one node, or a node importing itself (Tarjan). */
export function findCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    next.get(from)!.push(to);
  }
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    lowLink.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(target)!));
      } else if (onStack.has(target)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(target)!));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (next.get(node) ?? []).includes(node)) cycles.push(group.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;

/** Every import between the repository's own source files under `roots`, as repository paths without extension. */
export function readImportEdges(repository: string, roots: string[] = ["lib", "app", "components", "inngest"]): ImportEdge[] {
  const files = roots.flatMap((root) => listSources(path.join(repository, root)));
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const from = withoutExtension(path.relative(repository, file));
    const text = fs.readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      const target = resolveSpecifier(repository, file, specifier);
      if (target !== null) edges.push({ from, to: target });
    }
  }
  return edges;
}

function listSources(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : listSources(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** A project path for `@/…` and relative specifiers (a folder means its index), null for packages. */
function resolveSpecifier(repository: string, importer: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("@/")) target = path.join(repository, specifier.slice(2));
  else if (specifier.startsWith(".")) target = path.resolve(path.dirname(importer), specifier);
  else return null;
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) target = path.join(target, "index");
  return withoutExtension(path.relative(repository, target));
}

function withoutExtension(file: string): string {
  return file.split(path.sep).join("/").replace(/\.(ts|tsx|mts|js|mjs|json)$/, "");
}

/** Where a transaction may be opened: the entry points, and the infrastructure under them. */
const TRANSACTION_OWNING_AREAS = ["lib/db", "lib/deps", "lib/ledger", "lib/chains", "lib/api", "lib/cabinet", "lib/jobs", "lib/cli", "lib/runtime", "app", "inngest"];
const OPENS_TRANSACTION = /\b(?:withTransaction|runUnit)\s*\(/;

/**
 * Production files that open a transaction outside the areas that own transactions: a service
 * opening its own is the finding (services define units of work; entry points run them).
 */
export function findTransactionOpeners(repository: string, roots: string[] = ["lib", "app", "components", "inngest"]): string[] {
  return roots
    .flatMap((root) => listSources(path.join(repository, root)))
    .map((file) => path.relative(repository, file).split(path.sep).join("/"))
    .filter((file) => !isTestCode(file) && !TRANSACTION_OWNING_AREAS.includes(areaOf(file) ?? ""))
    .filter((file) => OPENS_TRANSACTION.test(fs.readFileSync(path.join(repository, file), "utf8")))
    .sort();
}
