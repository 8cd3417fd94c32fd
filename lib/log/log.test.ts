import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { addLogContext, createLog, log, parseLogThreshold, setLogOutput, withLogContext, type LogThreshold } from "./index";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A real logger writing into memory; `lines()` parses what it wrote. */
function capture(level: LogThreshold = "debug") {
  const written: string[] = [];
  const logger = createLog({ level, destination: { write: (line) => void written.push(line) } });
  return { log: logger, written, lines: () => written.map((line) => JSON.parse(line) as Record<string, any>) };
}

describe("log lines", () => {
  it("are one JSON object per line: level, ISO time, msg and the caller's fields", () => {
    const { log, written, lines } = capture();
    log.info("payout sent", { payoutId: "p-1", attempts: 2, isFinal: true, missing: undefined });
    expect(written).toHaveLength(1);
    expect(written[0].endsWith("}\n")).toBe(true);
    expect(written[0].slice(0, -1)).not.toContain("\n");
    const [line] = lines();
    expect(line).toEqual({ level: "info", time: expect.any(String), msg: "payout sent", payoutId: "p-1", attempts: 2, isFinal: true });
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it("name their level, so warnings and errors stand out", () => {
    const { log, lines } = capture();
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    expect(lines().map((line) => [line.level, line.msg])).toEqual([
      ["debug", "d"],
      ["info", "i"],
      ["warn", "w"],
      ["error", "e"],
    ]);
  });

  it.each([
    ["debug", ["debug", "info", "warn", "error"]],
    ["info", ["info", "warn", "error"]],
    ["warn", ["warn", "error"]],
    ["error", ["error"]],
    ["silent", []],
  ] as const)("at LOG_LEVEL=%s write %j", (threshold, expected) => {
    const { log, lines } = capture(threshold);
    for (const level of ["debug", "info", "warn", "error"] as const) log[level](level);
    expect(lines().map((line) => line.level)).toEqual(expected);
  });

  it.each([
    ["debug", "debug"],
    ["warn", "warn"],
    ["silent", "silent"],
    [undefined, "info"],
    ["", "info"],
    ["verbose", "info"],
    ["trace", "info"],
  ])("LOG_LEVEL %j is %s", (text, expected) => {
    expect(parseLogThreshold(text)).toBe(expected);
  });

  it("write bigints as strings, however deep", () => {
    const { log, lines } = capture();
    log.info("credited", { amount: 123456789012345678901234567890n, legs: [{ amount: -1n }, { amount: 0n }], totals: { usdt: 10n ** 18n } });
    expect(lines()[0]).toMatchObject({
      amount: "123456789012345678901234567890",
      legs: [{ amount: "-1" }, { amount: "0" }],
      totals: { usdt: "1000000000000000000" },
    });
  });

  it("write an error with its type, stack, own code and the chain of causes", () => {
    const { log, lines } = capture();
    const root = new Error("connect ECONNREFUSED 127.0.0.1:8545");
    const wrapped = new AppError("payout.network_unavailable", undefined, { cause: root });
    log.error("payout not sent", { error: new Error("pass failed", { cause: wrapped }) });
    const { error } = lines()[0];
    expect(error.type).toBe("Error");
    expect(error.message).toBe("pass failed");
    expect(error.stack).toMatch(/^Error: pass failed\n\s+at /);
    expect(error.cause).toMatchObject({ type: "AppError", code: "payout.network_unavailable", status: 503 });
    expect(error.cause.stack).toContain("AppError");
    expect(error.cause.cause).toMatchObject({ type: "Error", message: "connect ECONNREFUSED 127.0.0.1:8545" });
  });

  it("keep an error given as text, and what is not an error, as it is", () => {
    const { log, lines } = capture();
    log.warn("e-mail not sent", { error: "550 mailbox unavailable" });
    log.warn("odd throw", { error: { reason: 42 } });
    expect(lines().map((line) => line.error)).toEqual(["550 mailbox unavailable", { reason: 42 }]);
  });
});

describe("log context", () => {
  it("adds the fields of the current unit of work to every line in it, and only there", async () => {
    const { log, lines } = capture();
    log.info("before");
    await withLogContext({ request_id: "req_a" }, async () => {
      log.info("authenticating");
      addLogContext({ merchant_id: "m-1" });
      // The unit of work crosses a timer, as a request's does: its fields must survive that.
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.info("handled", { invoiceId: "i-1" });
    });
    log.info("after");
    expect(lines().map(({ time: _time, level: _level, ...rest }) => rest)).toEqual([
      { msg: "before" },
      { request_id: "req_a", msg: "authenticating" },
      { request_id: "req_a", merchant_id: "m-1", invoiceId: "i-1", msg: "handled" },
      { msg: "after" },
    ]);
  });

  it("keeps concurrent units apart, and a nested unit starts afresh", async () => {
    const { log, lines } = capture();
    let finishFast!: () => void;
    const fastDone = new Promise<void>((resolve) => (finishFast = resolve));
    const work = (id: string, waitFor: Promise<void>) =>
      withLogContext({ request_id: id }, async () => {
        await waitFor;
        log.info("done");
        withLogContext({ job: "webhook.deliver" }, () => log.info("job started by the request"));
      });
    // The slow unit starts first and resumes only once the fast one has logged.
    const slow = work("req_slow", fastDone);
    await work("req_fast", Promise.resolve());
    finishFast();
    await slow;
    expect(lines().map((line) => [line.request_id, line.job, line.msg])).toEqual([
      ["req_fast", undefined, "done"],
      [undefined, "webhook.deliver", "job started by the request"],
      ["req_slow", undefined, "done"],
      [undefined, "webhook.deliver", "job started by the request"],
    ]);
  });

  it("are scrubbed like the fields", () => {
    const { log, lines } = capture();
    withLogContext({ payer: "payer@example.com" }, () => log.info("x"));
    expect(lines()[0].payer).toBe("[email]");
  });
});

describe("the service's log", () => {
  it("writes where setLogOutput sends it, until put back", () => {
    const written: string[] = [];
    const restore = setLogOutput({ level: "info", destination: { write: (line) => void written.push(line) } });
    log.debug("not at info");
    log.info("captured");
    restore();
    log.error("not captured (LOG_LEVEL=silent in tests)");
    expect(written.map((line) => JSON.parse(line).msg)).toEqual(["captured"]);
  });

  it("writes debug and info to stdout, warn and error to stderr, from LOG_LEVEL on", () => {
    // A fresh process, as the service runs: `log` at LOG_LEVEL=warn, beside a debug-level logger on the same streams.
    const script = `import { createLog, log } from "@/lib/log";
      const verbose = createLog({ level: "debug" });
      for (const level of ["debug", "info", "warn", "error"]) { log[level]("log " + level); verbose[level]("verbose " + level, { amount: 5n }); }`;
    const result = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["-e", script], { cwd: ROOT, encoding: "utf8", env: { ...process.env, LOG_LEVEL: "warn" } });
    expect(result.status, result.stderr).toBe(0);
    const messagesOf = (text: string) => text.split("\n").filter(Boolean).map((line) => JSON.parse(line).msg);
    expect(messagesOf(result.stdout)).toEqual(["verbose debug", "verbose info"]);
    expect(messagesOf(result.stderr)).toEqual(["log warn", "verbose warn", "log error", "verbose error"]);
  }, 60_000);

  it("reads well through pino-pretty", () => {
    const { log, written } = capture();
    withLogContext({ request_id: "req_pretty" }, () => log.warn("request", { operation: "/v1/pay/{id}", status: 503, code: "request.busy" }));
    const pretty = spawnSync(path.join(ROOT, "node_modules/.bin/pino-pretty"), ["--colorize", "false"], { input: written.join(""), encoding: "utf8" });
    expect(pretty.status, pretty.stderr).toBe(0);
    expect(pretty.stdout).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: request\n/);
    expect(pretty.stdout).toContain('request_id: "req_pretty"');
    expect(pretty.stdout).toContain('operation: "/v1/pay/{id}"');
    expect(pretty.stdout).toContain('code: "request.busy"');
  }, 60_000);
});
