import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { TEST_MASTER_KEY } from "./harness";

export interface TestWorker {
  child: ChildProcess;
  /** Resolves once the worker has printed `text` (rejects if it exits first). */
  printed(text: string): Promise<void>;
  /** Resolves with the exit code and what the worker printed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Starts sweep-worker.ts as its own process on the test database, with the given node endpoints. */
export function spawnSweepWorker(network: string, passes: number, env: Record<string, string>): TestWorker {
  return spawnTestWorker(path.join(import.meta.dirname, "../services/outgoing/testing/sweep-worker.ts"), { SWEEP_NETWORK: network, SWEEP_PASSES: String(passes), ...env });
}

/** Starts a worker script (run by tsx) as its own process on the test database. */
export function spawnTestWorker(script: string, env: Record<string, string>): TestWorker {
  const root = path.resolve(import.meta.dirname, "../..");
  const child = spawn(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), script], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: inject("databaseUrl"),
      GATEWAY_MASTER_KEY: TEST_MASTER_KEY,
      GATEWAY_SANDBOX: "1",
      LOG_LEVEL: "silent",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.includes(text)) return resolve();
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`worker exited before printing ${text}: ${stderr}`));
        setTimeout(check, 50);
      };
      check();
    });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, printed, exited };
}

/** Starts payout-worker.ts (batches, then payouts of one network, until nothing is left) as its own process. */
export function spawnPayoutWorker(network: string, env: Record<string, string>): TestWorker {
  return spawnTestWorker(path.join(import.meta.dirname, "../services/payouts/testing/payout-worker.ts"), { PAYOUT_NETWORK: network, ...env });
}
