import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The deployment files name scripts, paths and variables of the project; renaming one of those
// would break an image or a compose file that no other test builds. These checks read the files
// as text: no Docker is needed (the image build itself is e2e/deploy/*.docker.e2e.test.ts).

const ROOT = process.cwd();
const read = (relative: string) => fs.readFileSync(path.join(ROOT, relative), "utf8");
const exists = (relative: string) => fs.existsSync(path.join(ROOT, relative));
const scripts = JSON.parse(read("package.json")).scripts as Record<string, string>;

/** The file an npm script runs through tsx's loader (`exec node [V8 flags] --import tsx lib/runtime/start.ts` → lib/runtime/start.ts). */
function scriptFile(name: string): string | undefined {
  return /^(?:exec )?node (?:--[\w-]+=\d+ )*--import tsx (\S+\.ts)$/.exec(scripts[name] ?? "")?.[1];
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function dockerInstructions(text: string): { keyword: string; args: string }[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
    });
}

/** The patterns of .dockerignore, as globs matched against a path from the context's root. */
function isDockerIgnored(relative: string): boolean {
  const patterns = read(".dockerignore")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const toRegExp = (pattern: string) => new RegExp(`^${pattern.replace(/\./g, "\\.").replace(/\*/g, "[^/]*")}(/|$)`);
  return patterns.some((pattern) => toRegExp(pattern).test(relative));
}

/** Upper-case keys of a compose file: the environment variables it sets. */
function composeVariables(text: string): string[] {
  return [...text.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]);
}

/** Whether the program reads a variable: its name appears in a non-test source under lib/. */
function isReadByProgram(name: string): boolean {
  const visit = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name !== "testing" && visit(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && fs.readFileSync(full, "utf8").includes(name);
    });
  return visit(path.join(ROOT, "lib"));
}

/** Variables read by the images that compose runs, not by the gateway. */
const FOREIGN_VARIABLES = new Set(["POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "INNGEST_DEV", "INNGEST_BASE_URL"]);

describe("package.json scripts of the deployment", () => {
  it.each(["start", "worker"])("`npm run %s` runs a file that exists", (name) => {
    const file = scriptFile(name);
    expect(file).toBeDefined();
    expect(exists(file!)).toBe(true);
  });
});

describe("Dockerfile", () => {
  const instructions = dockerInstructions(read("Dockerfile"));
  const finalStage = instructions.slice(instructions.map((instruction) => instruction.keyword).lastIndexOf("FROM"));

  it("builds every stage on node:20-bookworm-slim", () => {
    expect(read("Dockerfile")).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    const stages = instructions.filter((instruction) => instruction.keyword === "FROM").map((instruction) => instruction.args.split(" ")[0]);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const named = new Set(instructions.filter((instruction) => instruction.keyword === "FROM").map((instruction) => instruction.args.split(" AS ")[1]));
    expect(stages.every((base) => base === "${NODE_IMAGE}" || named.has(base))).toBe(true);
  });

  it("copies only files that exist and that .dockerignore lets through", () => {
    const sources = instructions
      .filter((instruction) => instruction.keyword === "COPY" && !instruction.args.includes("--from="))
      .flatMap((instruction) => instruction.args.split(" ").filter((word) => !word.startsWith("--")).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources.filter((candidate) => candidate !== ".")) {
      expect(exists(source), source).toBe(true);
      expect(isDockerIgnored(source), source).toBe(false);
    }
  });

  it("runs project files that exist and are not ignored", () => {
    const referenced = instructions
      .filter((instruction) => ["RUN", "HEALTHCHECK", "CMD"].includes(instruction.keyword))
      .flatMap((instruction) => [...instruction.args.matchAll(/(?:^|[\s"])((?:deploy|lib)\/[\w./-]+\.(?:ts|mjs))/g)].map((match) => match[1]));
    expect(referenced).toContain("deploy/prepare-image.ts");
    expect(referenced).toContain("deploy/healthcheck.mjs");
    for (const file of referenced) {
      expect(exists(file), file).toBe(true);
      expect(isDockerIgnored(file), file).toBe(false);
    }
  });

  it("leaves host builds, dependencies and local state out of the context", () => {
    for (const ignored of ["node_modules", ".next", "generated", ".data", ".git", ".env"]) expect(isDockerIgnored(ignored), ignored).toBe(true);
    for (const kept of ["package-lock.json", ".npmrc", "prisma/schema.prisma", "prisma/migrations", "app/healthz/route.ts"]) expect(isDockerIgnored(kept), kept).toBe(false);
  });

  it("runs `npm start` as a non-root user, with the data directory on a volume and a health check on /healthz", () => {
    const keywords = finalStage.map((instruction) => instruction.keyword);
    expect(finalStage.find((instruction) => instruction.keyword === "USER")?.args).toBe("node");
    expect(keywords.indexOf("USER")).toBeLessThan(keywords.indexOf("CMD"));
    expect(finalStage.find((instruction) => instruction.keyword === "CMD")?.args).toBe('["npm", "start"]');
    expect(scripts.start).toBeDefined();
    const environment = finalStage.filter((instruction) => instruction.keyword === "ENV").map((instruction) => instruction.args).join(" ");
    const dataDir = /GATEWAY_DATA_DIR=(\S+)/.exec(environment)?.[1];
    expect(dataDir).toBe("/data");
    expect(finalStage.find((instruction) => instruction.keyword === "VOLUME")?.args).toBe(`["${dataDir}"]`);
    expect(finalStage.find((instruction) => instruction.keyword === "HEALTHCHECK")?.args).toMatch(/CMD \["node", "deploy\/healthcheck\.mjs"\]$/);
    expect(read("deploy/healthcheck.mjs")).toContain("/healthz");
    expect(read("deploy/healthcheck.mjs")).toContain("WORKER_PORT");
    expect(exists("app/healthz/route.ts")).toBe(true);
  });
});

describe("compose files", () => {
  const compose = read("compose.yaml");
  const inngestOverride = read("deploy/compose.inngest.yaml");

  it("runs PostgreSQL 16, two web replicas without jobs and a worker from the same image", () => {
    expect(compose).toMatch(/^\s+image: postgres:16$/m);
    const web = /^ {2}web:\n([\s\S]*?)(?=^ {2}\w|^\S)/m.exec(compose)?.[1] ?? "";
    const worker = /^ {2}worker:\n([\s\S]*?)(?=^ {2}\w|^\S)/m.exec(compose)?.[1] ?? "";
    expect(web).toMatch(/^\s+command: \["npm", "start"\]$/m);
    expect(web).toMatch(/^\s+replicas: 2$/m);
    expect(web).toMatch(/^\s+GATEWAY_WORKER: "off"$/m);
    expect(web).toMatch(/^\s+build: \.$/m);
    expect(worker).toMatch(/^\s+command: \["npm", "run", "worker"\]$/m);
    // The image's HEALTHCHECK asks the worker on WORKER_PORT.
    expect(worker).toMatch(/^\s+WORKER_PORT: "\d+"$/m);
    expect(/image: (\S+)/.exec(web)?.[1]).toBe(/image: (\S+)/.exec(worker)?.[1]);
    expect(exists("Dockerfile")).toBe(true);
  });

  it("names only npm scripts that exist", () => {
    for (const match of `${compose}\n${inngestOverride}`.matchAll(/command: \["npm", (?:"run", )?"([\w:-]+)"/g)) {
      expect(scripts[match[1]], match[1]).toBeDefined();
    }
  });

  it("sets only variables that the gateway or the image it configures reads", () => {
    const variables = [...composeVariables(compose), ...composeVariables(inngestOverride)];
    expect(variables).toContain("DATABASE_URL");
    expect(variables).toContain("GATEWAY_MASTER_KEY");
    for (const name of new Set(variables)) {
      expect(FOREIGN_VARIABLES.has(name) || isReadByProgram(name), name).toBe(true);
    }
  });

  it("points the Inngest dev server at the route that serves the functions", () => {
    expect(inngestOverride).toMatch(/^\s+GATEWAY_WORKER: inngest$/m);
    const url = /"-u", "http:\/\/web:(\d+)(\/[\w/]+)"/.exec(inngestOverride);
    expect(url).not.toBeNull();
    expect(compose).toMatch(new RegExp(`^\\s+PORT: "${url![1]}"$`, "m"));
    expect(exists(`app${url![2]}/route.ts`)).toBe(true);
  });
});
