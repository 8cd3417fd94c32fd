import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";

// Builds ./Dockerfile and runs the image as an operator would. It needs a Docker daemon: `npm test`
// runs it only where `docker info` succeeds and otherwise reports it as not run, with the reason.

const tag = `gateway-e2e-image:${process.pid}`;
let containerId: string | undefined;

function docker(args: string[], timeoutMs = 120_000): SpawnSyncReturns<string> {
  return spawnSync("docker", args, { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
}

afterAll(() => {
  if (containerId) docker(["rm", "--force", "--volumes", containerId]);
  docker(["image", "rm", "--force", tag]);
});

describe("the container image", () => {
  it("builds, runs `npm start` as a non-root user on the embedded database in /data, and turns healthy by its HEALTHCHECK", async () => {
    const info = docker(["info", "--format", "{{.ServerVersion}}"], 30_000);
    if (info.status !== 0) {
      // Never a silent pass: without a daemon this test fails; `npm test` does not run it then and says why.
      throw new Error(`no Docker daemon answers (docker info: ${(info.stderr || info.error?.message || "").trim()})`);
    }
    const build = docker(["build", "--tag", tag, "."], 40 * 60_000);
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);

    const user = docker(["run", "--rm", "--entrypoint", "id", tag, "-u"]);
    expect(user.status).toBe(0);
    expect(user.stdout.trim()).not.toBe("0");

    // The worker command exists in the image, and refuses the embedded database with its reason.
    const worker = docker(["run", "--rm", tag, "npm", "run", "--silent", "worker"]);
    expect(worker.status).not.toBe(0);
    expect(worker.stderr).toContain("npm run worker needs DATABASE_URL");

    const run = docker(["run", "--detach", "--publish", "127.0.0.1::3000", tag]);
    expect(run.status, run.stderr).toBe(0);
    containerId = run.stdout.trim();
    const published = docker(["port", containerId, "3000/tcp"]).stdout.trim().split("\n")[0];
    const baseUrl = `http://${published}`;

    await expect
      .poll(() => docker(["inspect", "--format", "{{.State.Health.Status}}", containerId!]).stdout.trim(), { timeout: 300_000, interval: 2_000 })
      .toBe("healthy");
    const health = await fetch(`${baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, sandbox: true });
    // Started without building again: the image's build matches its sources.
    expect(docker(["logs", containerId]).stdout).not.toContain("Building the application");
    const dataDir = docker(["exec", containerId, "ls", "/data"]);
    expect(dataDir.stdout).toContain("master.key");
  }, 60 * 60_000);
});
