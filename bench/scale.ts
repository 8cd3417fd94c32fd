import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli, startService, type RunningService } from "@/e2e/testing/service";
import { scratchDatabase } from "@/lib/testing/scratch-database";
import { startWorkerProcess, type RunningWorker } from "@/e2e/testing/worker-process";
import { createInvoiceTarget, runLoad, signedReadTarget, type BenchKey, type LoadResult } from "./load";
import { openCpuCap, type CpuCap } from "./cpu-cap";
import { findServiceRootPid, processGroupPids } from "./memory";

export interface ScaleFigure {
  processes: number;
  signedRead: LoadResult;
  createInvoices: LoadResult;
}

/** Uncapped load on every web process before the capped series, not reported. */
const WARM_UP_SECONDS = 5;

export interface ScaleOut {
  /** Every process uncapped on this machine's cores. */
  shared: ScaleFigure[];
  /** Each web process capped at `cores` of CPU, or why that could not be done here. */
  capped: { cores: number; figures: ScaleFigure[] } | { unavailable: string };
}

/**
 * Throughput against 1, 2 … `maxProcesses` web processes on one PostgreSQL database, in docs/deployment.md's
 * "Several web processes and workers" topology: web processes with GATEWAY_WORKER=off sharing one
 * master key, plus one `npm run worker`. The load's clients are spread over the web processes
 * round-robin, each keeping its connection to one of them. A database of its own on the bench's server.
 * Measured twice: with each web process capped (see cpu-cap.ts) while PostgreSQL, the worker and
 * the load generator keep the rest of the cores, then sharing the machine's cores.
 */
export async function measureScaleOut(
  serverUrl: string,
  serviceEnv: Record<string, string>,
  options: {
    maxProcesses: number;
    /** The CPU each web process gets in the capped series (0.25 = a quarter of a core). */
    coresPerProcess: number;
    concurrency: number;
    seconds: number;
    warmupSeconds: number;
    onFigure(figure: ScaleFigure, cappedAt?: number): void;
  },
): Promise<ScaleOut> {
  const database = scratchDatabase(serverUrl, `gateway_bench_scale_${process.pid}`);
  await database.create();
  const databaseUrl = database.url;
  // Every process must open the secrets the others sealed.
  const sharedEnv = { ...serviceEnv, DATABASE_URL: databaseUrl, GATEWAY_MASTER_KEY: randomBytes(32).toString("hex") };
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-bench-scale-"));
  const startWeb = () => startService({ dataDir: fs.mkdtempSync(path.join(dataRoot, "web-")), extraEnv: { ...sharedEnv, GATEWAY_WORKER: "off" } });
  const webs: RunningService[] = [];
  let worker: RunningWorker | undefined;
  const caps: CpuCap[] = [];
  try {
    // Started together, as that topology starts; settled both, so neither is left running on a failure.
    const [startedWorker, firstWeb] = await Promise.allSettled([startWorkerProcess({ extraEnv: sharedEnv }), startWeb()]);
    if (startedWorker.status === "fulfilled") worker = startedWorker.value;
    if (firstWeb.status === "fulfilled") webs.push(firstWeb.value);
    if (startedWorker.status === "rejected") throw startedWorker.reason;
    if (firstWeb.status === "rejected") throw firstWeb.reason;
    const key = runCli(webs[0].env, ["merchant", "create", "--name", "Scale bench"]).json as BenchKey;
    const measure = async (processes: number, suffix: string, concurrency: number, seconds = options.seconds): Promise<ScaleFigure> => {
      const load = { concurrency, seconds, warmupSeconds: options.warmupSeconds };
      const baseUrls = webs.slice(0, processes).map((web) => web.baseUrl);
      const label = `${processes} web process${processes > 1 ? "es" : ""}${suffix}`;
      return {
        processes,
        signedRead: await runLoad({ ...signedReadTarget(baseUrls, key), label: `signed read, ${label}` }, load),
        createInvoices: await runLoad({ ...createInvoiceTarget(baseUrls, key), label: `create invoice, ${label}` }, load),
      };
    };
    while (webs.length < options.maxProcesses) webs.push(await startWeb());
    // Capped first, while the worker's address pool is as the start left it for both series alike
    // (the uncapped series drains it faster than a capped process's requests would). Capped once
    // warm: a process's first requests load and compile the API's modules, slow at a quarter of a core.
    await measure(options.maxProcesses, ", warming up", options.concurrency, WARM_UP_SECONDS);
    let capped: ScaleOut["capped"] = { cores: options.coresPerProcess, figures: [] };
    for (const [index, web] of webs.entries()) {
      const cap = openCpuCap(`gateway-bench-${process.pid}-web-${index + 1}`, options.coresPerProcess);
      if ("unavailable" in cap) {
        capped = cap;
        break;
      }
      caps.push(cap);
      const rootPid = findServiceRootPid(web.dataDir);
      if (rootPid === undefined) throw new Error(`web process ${index + 1} is not running`);
      cap.add(processGroupPids(rootPid));
    }
    if ("figures" in capped) {
      for (let processes = 1; processes <= options.maxProcesses; processes++) {
        // Each capped process with the clients one process had: a machine added behind a load balancer
        // comes with its share of the traffic (the same clients spread thinner would also thin the
        // statements each process coalesces, and measure that instead).
        capped.figures.push(await measure(processes, `, ${options.coresPerProcess} core and ${options.concurrency} clients each`, options.concurrency * processes));
        options.onFigure(capped.figures[capped.figures.length - 1], options.coresPerProcess);
      }
    }
    for (const cap of caps.splice(0)) cap.close();
    const shared: ScaleFigure[] = [];
    for (let processes = 1; processes <= options.maxProcesses; processes++) {
      shared.push(await measure(processes, "", options.concurrency));
      options.onFigure(shared[shared.length - 1]);
    }
    return { shared, capped };
  } finally {
    await Promise.all([...webs.map((web) => web.stop()), worker?.stop()]);
    for (const cap of caps) cap.close();
    await database.drop();
    fs.rmSync(dataRoot, { recursive: true, force: true });
  }
}
