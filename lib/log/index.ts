import pino from "pino";
import { currentLogContext } from "./context";
import { scrubLogFields, scrubText } from "./scrub";

export { addLogContext, withLogContext, type LogContext } from "./context";

/**
 * Structured log lines: one JSON object per line (pino), easy to ship and to grep, readable
 * through `npx pino-pretty`. Each line has `level` (debug, info, warn, error), `time` (ISO 8601),
 * `msg`, the caller's fields, and the fields of the current context (`request_id`, `merchant_id`
 * while a request is handled). Bigints are written as strings, an `error` field with its stack
 * and cause, and no secret or e-mail address reaches a line (lib/log/scrub.ts).
 */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** LOG_LEVEL: the least level written, or silent. */
export type LogThreshold = LogLevel | "silent";

export type LogFields = Record<string, unknown>;

export interface Log {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** Where lines go: each `write` receives one JSON object and its newline. */
export interface LogDestination {
  write(line: string): void;
}

const THRESHOLDS: readonly string[] = ["debug", "info", "warn", "error", "silent"] satisfies LogThreshold[];

/** LOG_LEVEL as configured: debug, info, warn, error or silent; anything else is info. */
export function parseLogThreshold(text: string | undefined): LogThreshold {
  return text !== undefined && THRESHOLDS.includes(text) ? (text as LogThreshold) : "info";
}

/**
 * stdout for debug and info, stderr for warn and error (an operator can split them, and the
 * CLI's one JSON object on stdout stays apart from failures). Written synchronously by the
 * process's own streams: pino's transports run in worker threads, which Next's bundles break.
 */
function standardStreams(): LogDestination {
  return pino.multistream(
    [
      { level: "debug", stream: process.stdout },
      { level: "warn", stream: process.stderr },
    ],
    { dedupe: true },
  );
}

/** A logger writing to `destination` (default: stdout and stderr) from `level` (default: LOG_LEVEL). */
export function createLog(options: { level?: LogThreshold; destination?: LogDestination } = {}): Log {
  const logger = pino(
    {
      level: options.level ?? parseLogThreshold(process.env.LOG_LEVEL),
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        // Context and fields alike pass through the scrub: nothing reaches the line unscrubbed.
        log: (fields) => scrubLogFields(fields),
      },
      mixin: () => currentLogContext(),
    },
    options.destination ?? standardStreams(),
  );
  const writer = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (logger.isLevelEnabled(level)) logger[level](fields ?? {}, scrubText(message));
  };
  return { debug: writer("debug"), info: writer("info"), warn: writer("warn"), error: writer("error") };
}

let output: Log = createLog();

/** The service's logger. */
export const log: Log = {
  debug: (message, fields) => output.debug(message, fields),
  info: (message, fields) => output.info(message, fields),
  warn: (message, fields) => output.warn(message, fields),
  error: (message, fields) => output.error(message, fields),
};

/** Sends the lines of `log` elsewhere (a test's capture); the returned function puts the previous output back. */
export function setLogOutput(options: { level?: LogThreshold; destination?: LogDestination }): () => void {
  const previous = output;
  output = createLog(options);
  return () => {
    output = previous;
  };
}
