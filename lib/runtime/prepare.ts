import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { hasHostedAssets } from "./hosted-assets";

const ROOT = process.cwd();

/** Inputs of the Prisma client: regenerate when the schema changes. */
const CLIENT_STAMP = path.join(ROOT, "generated", "prisma", ".schema-sha256");
/** Inputs of the Next build: rebuild when any of them changes. */
const BUILD_STAMP = path.join(ROOT, ".next", "gateway-build-fingerprint");
const BUILD_INPUTS = ["app", "components", "lib", "inngest", "public", "generated", "next.config.mjs", "postcss.config.mjs", "tsconfig.json", "package-lock.json"];

function run(command: string, args: string[], env: Record<string, string> = {}): void {
  // The child's stdout goes to stderr: the operator CLI keeps stdout for its one JSON object.
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ["ignore", 2, 2], env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed with exit code ${result.status}`);
}

function fingerprintOf(paths: string[]): string {
  const hash = createHash("sha256");
  const visit = (target: string) => {
    if (!fs.existsSync(target)) return;
    const stat = fs.statSync(target);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(target).sort()) {
        if (name === "node_modules" || name.endsWith(".test.ts")) continue;
        visit(path.join(target, name));
      }
    } else {
      hash.update(`${path.relative(ROOT, target)}\0${stat.size}\0${stat.mtimeMs}\0`);
    }
  };
  paths.forEach((relative) => visit(path.join(ROOT, relative)));
  return hash.digest("hex");
}

/** Generates the Prisma client when it is missing or older than prisma/schema.prisma. */
export function ensurePrismaClient(): void {
  const schemaHash = createHash("sha256").update(fs.readFileSync(path.join(ROOT, "prisma", "schema.prisma"))).digest("hex");
  if (fs.existsSync(CLIENT_STAMP) && fs.readFileSync(CLIENT_STAMP, "utf8") === schemaHash) return;
  // `generate` needs no schema engine; pointing it at a no-op stops the CLI from fetching one.
  run(process.execPath, [path.join(ROOT, "node_modules", "prisma", "build", "index.js"), "generate"], {
    PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  });
  fs.writeFileSync(CLIENT_STAMP, schemaHash);
}

/** Whether `.next` holds a build of the current inputs (so `npm start` will not build again). */
export function isNextBuildCurrent(): boolean {
  return (
    fs.existsSync(path.join(ROOT, ".next", "BUILD_ID")) &&
    hasHostedAssets() &&
    fs.existsSync(BUILD_STAMP) &&
    fs.readFileSync(BUILD_STAMP, "utf8") === fingerprintOf(BUILD_INPUTS)
  );
}

/**
 * Runs `next build` when there is no build or its inputs changed since, and builds the script and
 * stylesheet of the pages the server renders itself (lib/runtime/build-hosted-assets.ts) beside it.
 */
export function ensureNextBuild(): void {
  if (isNextBuildCurrent()) return;
  const fingerprint = fingerprintOf(BUILD_INPUTS);
  console.log("Building the application (first start or changed sources)…");
  run(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"], { NEXT_TELEMETRY_DISABLED: "1" });
  run(process.execPath, ["--import", "tsx", path.join(ROOT, "lib", "runtime", "build-hosted-assets.ts")]);
  fs.writeFileSync(BUILD_STAMP, fingerprint);
}
