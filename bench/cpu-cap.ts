import fs from "node:fs";
import path from "node:path";

/**
 * A CPU budget for a group of processes, enforced by the kernel's CFS quota in a cgroup of their
 * own (cgroup v2's `cpu.max`, or v1's `cpu.cfs_quota_us`). The scale part caps each web process
 * so that several of them stand for processes on machines of their own: on 2 cores one uncapped
 * process already keeps the cores busy, and the figures would show the machine, not the design.
 * Needs root (or a delegated cgroup); where none can be made, `openCpuCap` says why.
 */
export interface CpuCap {
  /** Moves these processes (with all their threads) under the cap. */
  add(pids: number[]): void;
  /** Removes the cgroup once its processes have ended (or moves the ones left back out). */
  close(): void;
}

/** A short period, so a capped process waits a few milliseconds when throttled, not most of 100 ms. */
const PERIOD_US = 10_000;
const V2_ROOT = "/sys/fs/cgroup";
const V1_CPU_ROOT = "/sys/fs/cgroup/cpu";

/** Where a cgroup with a CPU quota can be made on this machine, or why none can. */
function cgroupRoot(): { root: string; version: 1 | 2 } | { unavailable: string } {
  try {
    if (fs.existsSync(path.join(V2_ROOT, "cgroup.controllers"))) {
      if (!fs.readFileSync(path.join(V2_ROOT, "cgroup.controllers"), "utf8").split(/\s+/).includes("cpu")) return { unavailable: "cgroup v2 without the cpu controller" };
      if (!fs.readFileSync(path.join(V2_ROOT, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("cpu")) fs.writeFileSync(path.join(V2_ROOT, "cgroup.subtree_control"), "+cpu");
      return { root: V2_ROOT, version: 2 };
    }
    if (fs.existsSync(path.join(V1_CPU_ROOT, "cpu.cfs_quota_us"))) return { root: V1_CPU_ROOT, version: 1 };
    return { unavailable: "no cgroup cpu controller mounted" };
  } catch (error) {
    return { unavailable: `cgroup cpu controller not writable (${(error as NodeJS.ErrnoException).code ?? String(error)}; run as root)` };
  }
}

/** A cgroup named `name` allowing `cores` of CPU time (0.25 = a quarter of one core). */
export function openCpuCap(name: string, cores: number): CpuCap | { unavailable: string } {
  const located = cgroupRoot();
  if ("unavailable" in located) return located;
  const directory = path.join(located.root, name);
  const quota = String(Math.max(1000, Math.round(cores * PERIOD_US)));
  try {
    fs.mkdirSync(directory);
    if (located.version === 2) {
      fs.writeFileSync(path.join(directory, "cpu.max"), `${quota} ${PERIOD_US}`);
    } else {
      fs.writeFileSync(path.join(directory, "cpu.cfs_period_us"), String(PERIOD_US));
      fs.writeFileSync(path.join(directory, "cpu.cfs_quota_us"), quota);
    }
  } catch (error) {
    if (fs.existsSync(directory)) fs.rmdirSync(directory);
    return { unavailable: `cannot make a cgroup with a CPU quota (${(error as NodeJS.ErrnoException).code ?? String(error)}; run as root)` };
  }
  const procsFile = path.join(directory, "cgroup.procs");
  return {
    add(pids) {
      for (const pid of pids) {
        try {
          fs.writeFileSync(procsFile, String(pid));
        } catch (error) {
          // A helper process that ended in between is not worth failing the figure for.
          if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
        }
      }
    },
    close() {
      try {
        for (const pid of fs.readFileSync(procsFile, "utf8").split("\n").filter(Boolean)) fs.writeFileSync(path.join(located.root, "cgroup.procs"), pid);
        fs.rmdirSync(directory);
      } catch {
        // Processes still exiting keep the directory; an empty cgroup costs nothing and the next run's name differs.
      }
    },
  };
}
