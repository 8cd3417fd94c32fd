/**
 * `npm test`: the whole suite. Unit tests; integration tests against a real PostgreSQL
 * server and again against the embedded database; end-to-end tests against `npm start`.
 * Prints one closing line "N passed, N failed" and exits non-zero on any failure.
 *
 * TEST_DATABASE_URL names the PostgreSQL server (default: postgresql://postgres@127.0.0.1:5432/test).
 * Without a reachable server the PostgreSQL pass cannot run: locally that is reported with
 * the command that installs one; under CI it is a failure.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ensurePrismaClient } from "@/lib/runtime/prepare";
import { DEFAULT_TEST_SERVER_URL } from "./global-setup";

interface PassResult {
  name: string;
  passed: number;
  failed: number;
  ok: boolean;
  /** "file › test: first line of the error", so the summary at the end of a long log names what failed. */
  failures: string[];
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

interface PlaywrightSuite {
  file?: string;
  specs?: { title: string; ok: boolean; tests: { results: { error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
}

function firstLine(text: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (text ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((line) => line.trim() !== "")?.trim().slice(0, 300) ?? "";
}

function vitestFailures(report: VitestReport): string[] {
  const failures: string[] = [];
  for (const file of report.testResults) {
    const relative = path.relative(process.cwd(), file.name);
    const failedTests = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failedTests) failures.push(`${relative} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (failedTests.length === 0 && file.status === "failed") failures.push(`${relative}: ${firstLine(file.message)}`);
  }
  return failures;
}

function playwrightFailures(suites: PlaywrightSuite[], file = ""): string[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => !spec.ok)
      .map((spec) => `${suite.file ?? file} › ${spec.title}: ${firstLine(spec.tests.flatMap((test) => test.results).find((run) => run.error)?.error?.message)}`),
    ...playwrightFailures(suite.suites ?? [], suite.file ?? file),
  ]);
}

const isCi = process.env.CI === "true" || process.env.CI === "1";
const CHROMIUM = "/usr/bin/chromium";
/** Suites that start a real node from Debian's packages: `*.litecoind.int.test.ts`. */
const LITECOIND = "/usr/bin/litecoind";
/** End-to-end suites that start several processes on the PostgreSQL server (the scaled-out topology of docs/deployment.md). */
const POSTGRES_E2E = "**/*.postgres.e2e.test.ts";
/** Integration tests of what only a PostgreSQL server does (notices between sessions): not run on the embedded database. */
const POSTGRES_ONLY_INTEGRATION = "**/*.postgres.int.test.ts";
/** End-to-end suites that build and run the container image; they need a Docker daemon. */
const DOCKER_E2E = "**/*.docker.e2e.test.ts";

/** Why the container image cannot be built here, or null when a Docker daemon answers. */
function findDockerUnavailableReason(): string | null {
  const result = spawnSync("docker", ["info", "--format", "{{.ServerVersion}}"], { encoding: "utf8", timeout: 30_000 });
  if (result.error) return `the docker command is missing (${(result.error as NodeJS.ErrnoException).code ?? result.error.message})`;
  if (result.status !== 0) return `no Docker daemon answers (docker info: ${firstLine(result.stderr) || `exit ${result.status}`})`;
  return null;
}

async function isPostgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function runVitest(name: string, args: string[], env: Record<string, string> = {}): PassResult {
  const reportFile = path.join(os.tmpdir(), `gateway-vitest-${process.pid}-${name.replace(/\W+/g, "-")}.json`);
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(
    process.execPath,
    [path.join("node_modules", "vitest", "vitest.mjs"), "run", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`],
    { stdio: "inherit", env: { ...process.env, ...env } },
  );
  let passed = 0;
  let failed = 0;
  let failures: string[] = [];
  if (fs.existsSync(reportFile)) {
    const report = JSON.parse(fs.readFileSync(reportFile, "utf8")) as VitestReport;
    passed = report.numPassedTests;
    failed = report.numFailedTests;
    failures = vitestFailures(report);
    fs.rmSync(reportFile);
  }
  const ok = result.status === 0 && passed > 0;
  if (!ok && failed === 0) failed = 1; // the runner itself failed
  return { name, passed, failed, ok, failures };
}

function runPlaywright(name: string): PassResult {
  const reportFile = path.join(os.tmpdir(), `gateway-playwright-${process.pid}.json`);
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(process.execPath, [path.join("node_modules", "@playwright", "test", "cli.js"), "test", "--reporter=list,json"], {
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile },
  });
  let passed = 0;
  let failed = 0;
  let failures: string[] = [];
  if (fs.existsSync(reportFile)) {
    const report = JSON.parse(fs.readFileSync(reportFile, "utf8")) as {
      stats: { expected: number; unexpected: number; flaky: number };
      suites: PlaywrightSuite[];
    };
    passed = report.stats.expected + report.stats.flaky;
    failed = report.stats.unexpected;
    failures = playwrightFailures(report.suites);
    fs.rmSync(reportFile);
  }
  const ok = result.status === 0 && passed > 0;
  if (!ok && failed === 0) failed = 1; // the runner itself failed
  return { name, passed, failed, ok, failures };
}

async function main(): Promise<number> {
  ensurePrismaClient();
  const extraArgs = process.argv.slice(2);
  const results: PassResult[] = [];
  const notRun: string[] = [];

  results.push(runVitest("unit", ["--project", "unit", ...extraArgs]));

  // Real-node suites always run in CI (.ci/run installs the node); elsewhere a missing node is reported.
  const nodeExcludes: string[] = [];
  if (!fs.existsSync(LITECOIND)) {
    if (isCi) {
      console.error(`\n${LITECOIND} is missing; CI requires it for the UTXO real-node tests.`);
      results.push({ name: "UTXO real-node suites", passed: 0, failed: 1, ok: false, failures: [] });
    } else {
      notRun.push(`UTXO real-node suites (*.litecoind.int.test.ts): ${LITECOIND} is missing. Install it with:\n    sudo apt-get install -y litecoind`);
    }
    nodeExcludes.push("--exclude", "**/*.litecoind.int.test.ts");
  }

  const serverUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_SERVER_URL;
  const e2eExcludes = ["--exclude", DOCKER_E2E];
  if (await isPostgresReachable(serverUrl)) {
    results.push(runVitest("integration (PostgreSQL)", ["--project", "integration", ...nodeExcludes, ...extraArgs]));
  } else if (isCi) {
    console.error(`\nPostgreSQL is not reachable at ${serverUrl}; CI requires it.`);
    results.push({ name: "integration (PostgreSQL)", passed: 0, failed: 1, ok: false, failures: [] });
  } else {
    e2eExcludes.push("--exclude", POSTGRES_E2E);
    notRun.push(
      `integration tests on PostgreSQL, and the end-to-end tests of several processes on one database (${POSTGRES_E2E}): no server at ${serverUrl}. Install and start one with:\n` +
        "    sudo apt-get install -y postgresql && sudo pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n" +
        "  (or point TEST_DATABASE_URL at a server where the user may create databases)",
    );
  }
  // The real-node suites talk to their nodes, not to the database: once, on PostgreSQL, is enough.
  results.push(
    runVitest("integration (embedded database)", ["--project", "integration", "--exclude", "**/*.litecoind.int.test.ts", "--exclude", POSTGRES_ONLY_INTEGRATION, ...extraArgs], {
      GATEWAY_TEST_DATABASE: "embedded",
    }),
  );
  results.push(runVitest("end-to-end (npm start)", ["--project", "e2e", ...e2eExcludes, ...extraArgs]));
  // CI machines have no Docker daemon either: there too the image build is reported, not failed.
  const dockerUnavailableReason = findDockerUnavailableReason();
  if (dockerUnavailableReason === null) {
    results.push(runVitest("container image (docker build)", ["--project", "e2e", "e2e/deploy/", ...extraArgs]));
  } else {
    notRun.push(
      `container image build (e2e/deploy/${DOCKER_E2E.replace("**/", "")}): ${dockerUnavailableReason}. Install and start Docker with:\n` +
        "    sudo apt-get install -y docker.io && sudo dockerd &" +
        (isCi ? "\n  (not a failure under CI: CI machines have no Docker daemon)" : ""),
    );
  }
  if (fs.existsSync(CHROMIUM)) {
    results.push(runPlaywright("browser (Playwright, npm start)"));
  } else if (isCi) {
    console.error(`\n${CHROMIUM} is missing; CI requires it for the Playwright tests.`);
    results.push({ name: "browser (Playwright, npm start)", passed: 0, failed: 1, ok: false, failures: [] });
  } else {
    notRun.push(`browser tests (Playwright): ${CHROMIUM} is missing. Install it with:\n    sudo apt-get install -y chromium`);
  }

  console.log("\n=== summary ===");
  for (const result of results) {
    console.log(`${result.ok ? "ok  " : "FAIL"} ${result.name}: ${result.passed} passed, ${result.failed} failed`);
    for (const failure of result.failures) console.log(`       ✗ ${failure}`);
  }
  for (const line of notRun) console.log(`NOT RUN ${line}`);
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  console.log(`\n${passed} passed, ${failed} failed`);
  return results.every((result) => result.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
