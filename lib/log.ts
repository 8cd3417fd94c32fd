/** Structured log lines on stdout/stderr: one JSON object per line, easy to ship and to grep. */
type Level = "debug" | "info" | "warn" | "error";

const LEVELS: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

// LOG_LEVEL: debug, info (default), warn, error or silent.
function threshold(): number {
  const configured = (process.env.LOG_LEVEL ?? "info") as Level | "silent";
  return LEVELS[configured] ?? LEVELS.info;
}

function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  return { name: error.name, message: error.message, stack: error.stack, cause: serializeError(error.cause) };
}

function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < threshold()) return;
  const line: Record<string, unknown> = { time: new Date().toISOString(), level, message };
  for (const [key, value] of Object.entries(fields)) line[key] = key === "error" ? serializeError(value) : value;
  const text = JSON.stringify(line, (_key, value) => (typeof value === "bigint" ? value.toString() : value));
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(text + "\n");
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
