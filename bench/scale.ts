import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli, startService, type RunningService } from "@/e2e/fixtures/service";
import { scratchDatabase } from "@/lib/testing/scratch-database";
import { startWorkerProcess, type RunningWorker } from "@/e2e/fixtures/worker-process";
import { createInvoiceTarget, runLoad, signedReadTarget, type BenchKey, type LoadResult } from "./load";

export interface ScaleFigure {
  processes: number;
  signedRead: LoadResult;
  createInvoices: LoadResult;
}

/**
 * Throughput against 1, 2 … `maxProcesses` web processes on one PostgreSQL database, in the README's
 * "Several web processes and workers" topology: web processes with GATEWAY_WORKER=off sharing one
 * master key, plus one `npm run worker`. The load's clients are spread over the web processes
 * round-robin, each keeping its connection to one of them. A database of its own on the bench's server.
 */
export async function measureScaleOut(
  serverUrl: string,
  serviceEnv: Record<string, string>,
  options: { maxProcesses: number; concurrency: number; seconds: number; warmupSeconds: number; onFigure(figure: ScaleFigure): void },
): Promise<ScaleFigure[]> {
  const database = scratchDatabase(serverUrl, `gateway_bench_scale_${process.pid}`);
  await database.create();
  const databaseUrl = database.url;
  // Every process must open the secrets the others sealed.
  const sharedEnv = { ...serviceEnv, DATABASE_URL: databaseUrl, GATEWAY_MASTER_KEY: randomBytes(32).toString("hex") };
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-bench-scale-"));
  const startWeb = () => startService({ dataDir: fs.mkdtempSync(path.join(dataRoot, "web-")), extraEnv: { ...sharedEnv, GATEWAY_WORKER: "off" } });
  const webs: RunningService[] = [];
  let worker: RunningWorker | undefined;
  try {
    // Started together, as the README's topology starts; settled both, so neither is left running on a failure.
    const [startedWorker, firstWeb] = await Promise.allSettled([startWorkerProcess({ extraEnv: sharedEnv }), startWeb()]);
    if (startedWorker.status === "fulfilled") worker = startedWorker.value;
    if (firstWeb.status === "fulfilled") webs.push(firstWeb.value);
    if (startedWorker.status === "rejected") throw startedWorker.reason;
    if (firstWeb.status === "rejected") throw firstWeb.reason;
    const key = runCli(webs[0].env, ["merchant", "create", "--name", "Scale bench"]).json as BenchKey;
    const figures: ScaleFigure[] = [];
    for (let processes = 1; processes <= options.maxProcesses; processes++) {
      if (webs.length < processes) webs.push(await startWeb());
      const baseUrls = webs.map((web) => web.baseUrl);
      const load = { concurrency: options.concurrency, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
      const figure = {
        processes,
        signedRead: await runLoad({ ...signedReadTarget(baseUrls, key), label: `signed read, ${processes} web process${processes > 1 ? "es" : ""}` }, load),
        createInvoices: await runLoad({ ...createInvoiceTarget(baseUrls, key), label: `create invoice, ${processes} web process${processes > 1 ? "es" : ""}` }, load),
      };
      figures.push(figure);
      options.onFigure(figure);
    }
    return figures;
  } finally {
    await Promise.all([...webs.map((web) => web.stop()), worker?.stop()]);
    await database.drop();
    fs.rmSync(dataRoot, { recursive: true, force: true });
  }
}
