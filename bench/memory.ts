import fs from "node:fs";
import path from "node:path";
import { createInvoiceTarget, runLoad, signedReadTarget, type BenchKey, type LoadResult } from "./load";

interface ProcessInfo {
  pid: number;
  parentPid: number;
  groupId: number;
}

/** pid, parent and process group from /proc/<pid>/stat (the command name may hold spaces and parentheses). */
function readProcessInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const [, parentPid, groupId] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid, parentPid: Number(parentPid), groupId: Number(groupId) };
  } catch {
    return undefined;
  }
}

function listProcesses(): ProcessInfo[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcessInfo(Number(name)))
    .filter((info): info is ProcessInfo => info !== undefined);
}

/** Every process of a process group: a service started detached with its node process and helpers. */
export function processGroupPids(groupId: number): number[] {
  return listProcesses()
    .filter((info) => info.groupId === groupId)
    .map((info) => info.pid);
}

/**
 * The leaders of process groups started with this entry in their environment. startService and
 * startWorkerProcess start their processes detached, each leading a group of its own; the operator
 * CLI runs with the same environment but in the bench's group.
 */
export function findProcessGroupLeaders(environmentEntry: string): number[] {
  const marker = `\0${environmentEntry}\0`;
  return listProcesses()
    .filter((info) => info.pid === info.groupId)
    .filter((info) => {
      try {
        return `\0${fs.readFileSync(`/proc/${info.pid}/environ`, "utf8")}`.includes(marker);
      } catch {
        return false; // Another user's process, or one that just ended.
      }
    })
    .map((info) => info.pid);
}

/** The `npm start` process that runs with this data directory. */
export function findServiceRootPid(dataDir: string): number | undefined {
  return findProcessGroupLeaders(`GATEWAY_DATA_DIR=${dataDir}`)[0];
}

export interface RssSample {
  atSeconds: number;
  /** The whole tree: npm, tsx, the server (Next.js and the built-in worker), esbuild. */
  totalMb: number;
  /** The largest process of the tree: the server itself. */
  serverMb: number;
  processes: { name: string; mb: number }[];
}

/** A short name for a process of the tree: "npm start", "sh", "tsx", "node lib/runtime/start.ts", "esbuild". */
function nameProcess(pid: number): string {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const program = path.basename(argv[0] ?? "?");
    if (program !== "node") return program;
    return argv[1] && !argv[1].startsWith("-") ? path.basename(argv[1]) : `node ${argv[argv.length - 1]}`;
  } catch {
    return "?";
  }
}

function readRssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** VmRSS of a process and all its descendants, and of the largest of them. */
export function sampleTreeRss(rootPid: number, atSeconds: number): RssSample {
  const running = listProcesses();
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const info of running) {
      if (!tree.has(info.pid) && tree.has(info.parentPid)) {
        tree.add(info.pid);
        grew = true;
      }
    }
  }
  const processes = [...tree].map((pid) => ({ name: nameProcess(pid), mb: readRssMb(pid) })).filter((entry) => entry.mb > 0);
  const sizes = processes.map((entry) => entry.mb);
  return { atSeconds, totalMb: sizes.reduce((sum, size) => sum + size, 0), serverMb: Math.max(...sizes), processes };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Least-squares slope of the tree's RSS, in MB per minute. */
function slopeMbPerMinute(samples: RssSample[]): number {
  if (samples.length < 2) return 0;
  const meanTime = samples.reduce((sum, sample) => sum + sample.atSeconds, 0) / samples.length;
  const meanSize = samples.reduce((sum, sample) => sum + sample.totalMb, 0) / samples.length;
  let covariance = 0;
  let variance = 0;
  for (const sample of samples) {
    covariance += (sample.atSeconds - meanTime) * (sample.totalMb - meanSize);
    variance += (sample.atSeconds - meanTime) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 60;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Start-up's garbage (module compilation, the first job runs) is collected some 20 to 30 s after the
 * service is ready; sampled earlier, idle RSS is start-up's peak (measured: 520 MB falling to 440 MB).
 */
const IDLE_SETTLE_MS = 45_000;

/** RSS of the freshly started service before any load: the median of a few samples once start-up work has settled. */
export async function measureIdleRss(rootPid: number): Promise<RssSample> {
  await sleep(IDLE_SETTLE_MS);
  const samples: RssSample[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(sampleTreeRss(rootPid, 0));
    await sleep(2000);
  }
  const middle = [...samples].sort((a, b) => a.totalMb - b.totalMb)[Math.floor(samples.length / 2)];
  return middle;
}

export interface MemoryUnderLoad {
  seconds: number;
  samples: RssSample[];
  loads: LoadResult[];
  firstMinuteMb: number;
  secondMinuteMb?: number;
  lastMinuteMb: number;
  /** Last minute's median over the second minute's, minus one; undefined on runs too short to tell (under 3 min). */
  growth?: number;
  /** Least-squares slope after the first minute (the warm-up), or over the whole load on shorter runs. */
  slopeMbPerMinute: number;
  afterLoadMb: number;
}

/** A growth of the last minute's median over the second minute's up to this share counts as noise. */
export const MEMORY_GROWTH_NOISE = 0.05;
/** The first minute holds the warm-up (caches, JIT, pools filling); growth is judged from the second on, and needs a third. */
const MIN_SECONDS_FOR_VERDICT = 180;
const SAMPLE_INTERVAL_MS = 10_000;
const SETTLE_AFTER_LOAD_MS = 30_000;

/**
 * Sustained mixed load (four in five clients on signed reads, one in five creating invoices) for
 * `seconds`, with the tree's RSS sampled every 10 s during it and for 30 s after it.
 */
export async function measureMemoryUnderLoad(
  rootPid: number,
  baseUrl: string,
  key: BenchKey,
  options: { concurrency: number; seconds: number },
): Promise<MemoryUnderLoad> {
  const started = performance.now();
  const elapsedSeconds = () => (performance.now() - started) / 1000;
  const samples: RssSample[] = [sampleTreeRss(rootPid, 0)];
  const sampler = setInterval(() => samples.push(sampleTreeRss(rootPid, elapsedSeconds())), SAMPLE_INTERVAL_MS);
  const invoiceClients = Math.max(1, Math.round(options.concurrency / 5));
  const loads = await Promise.all([
    runLoad(signedReadTarget(baseUrl, key), { concurrency: options.concurrency - invoiceClients, seconds: options.seconds, warmupSeconds: 0 }),
    runLoad(createInvoiceTarget(baseUrl, key), { concurrency: invoiceClients, seconds: options.seconds, warmupSeconds: 0 }),
  ]);
  clearInterval(sampler);
  samples.push(sampleTreeRss(rootPid, elapsedSeconds()));
  const loadSeconds = elapsedSeconds();
  const afterLoad: RssSample[] = [];
  for (let waited = 0; waited < SETTLE_AFTER_LOAD_MS; waited += SAMPLE_INTERVAL_MS) {
    await sleep(SAMPLE_INTERVAL_MS);
    afterLoad.push(sampleTreeRss(rootPid, elapsedSeconds()));
  }

  // The sample at 0 s was taken before the first request: not part of any minute of load.
  const inWindow = (from: number, to: number) => samples.filter((sample) => sample.atSeconds > from && sample.atSeconds <= to);
  const medianOf = (window: RssSample[]) => median(window.map((sample) => sample.totalMb));
  const lastMinuteMb = medianOf(inWindow(Math.max(0, loadSeconds - 60), loadSeconds));
  const canJudge = loadSeconds >= MIN_SECONDS_FOR_VERDICT;
  const secondMinuteMb = canJudge ? medianOf(inWindow(60, 120)) : undefined;
  return {
    seconds: loadSeconds,
    samples,
    loads,
    firstMinuteMb: medianOf(inWindow(0, 60)),
    secondMinuteMb,
    lastMinuteMb,
    growth: secondMinuteMb === undefined ? undefined : lastMinuteMb / secondMinuteMb - 1,
    slopeMbPerMinute: slopeMbPerMinute(inWindow(canJudge ? 60 : 0, loadSeconds)),
    afterLoadMb: medianOf(afterLoad),
  };
}
