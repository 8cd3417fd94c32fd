import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { TEST_MASTER_KEY } from "@/lib/testing/harness";

const ROOT = path.resolve(import.meta.dirname, "../../..");

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout as its one JSON object (undefined when it is not exactly one). */
  json: any;
}

/** The operator's environment on the test database, with sandbox chains. */
export function cliEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: inject("databaseUrl"),
    GATEWAY_MASTER_KEY: TEST_MASTER_KEY,
    GATEWAY_SANDBOX: "1",
    GATEWAY_ALLOW_LOOPBACK_URLS: "1",
    LOG_LEVEL: "silent",
    ...overrides,
  };
}

function parseOne(stdout: string): unknown {
  const lines = stdout.split("\n").filter((line) => line !== "");
  if (lines.length !== 1) return undefined;
  try {
    return JSON.parse(lines[0]);
  } catch {
    return undefined;
  }
}

export interface CliProcess {
  child: ChildProcess;
  /** Resolves once stderr holds `text` (rejects if the CLI exits first). */
  printedOnStderr(text: string): Promise<void>;
  exited: Promise<CliRun>;
}

/** Starts `lib/cli/main.ts` as its own process, as `npm run gateway` does (tsx). */
export function startCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "lib/cli/main.ts", ...args], {
    cwd: ROOT,
    env: cliEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<CliRun>((resolve) => child.once("close", (status) => resolve({ status, stdout, stderr, json: parseOne(stdout) })));
  const printedOnStderr = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stderr.includes(text)) return resolve();
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`the CLI exited before printing ${text}:\n${stderr}`));
        setTimeout(check, 50);
      };
      check();
    });
  return { child, printedOnStderr, exited };
}

/** Runs one command line to its end. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return startCli(args, env).exited;
}
