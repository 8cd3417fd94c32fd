import { spawn } from "node:child_process";

/** A command started as the leader of its own process group, as an operator's shell starts it. */
export interface ProcessGroup {
  pid: number;
  output(): string;
  isAlive(): boolean;
  /** Sends SIGTERM to the whole group (as Ctrl-C or systemd do), SIGKILL after `graceMs`; true when it left in time. */
  stop(graceMs: number): Promise<boolean>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `npm <args>` in its own process group and waits until its output matches `ready`. */
export async function startProcessGroup(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs: number): Promise<ProcessGroup> {
  const child = spawn("npm", args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const pid = child.pid!;
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const isAlive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (!ready.test(output)) {
    if (child.exitCode !== null) throw new Error(`npm ${args.join(" ")} exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      process.kill(-pid, "SIGKILL");
      throw new Error(`npm ${args.join(" ")} did not become ready:\n${output}`);
    }
    await pause(200);
  }
  return {
    pid,
    output: () => output,
    isAlive,
    async stop(graceMs) {
      if (!isAlive()) return true;
      process.kill(-pid, "SIGTERM");
      const stopDeadline = Date.now() + graceMs;
      while (isAlive()) {
        if (Date.now() > stopDeadline) {
          process.kill(-pid, "SIGKILL");
          return false;
        }
        await pause(100);
      }
      return true;
    },
  };
}
