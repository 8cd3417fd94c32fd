/**
 * The operator contract (§2): with --json the CLI prints exactly one JSON object on stdout and
 * nothing else there. Everything in the process that writes to stdout (log lines, libraries) is
 * sent to stderr instead; only this module writes to the real stdout.
 */
const realStdoutWrite = process.stdout.write.bind(process.stdout);
let isClaimed = false;

/** From now on, stdout belongs to the CLI's own output; other writers go to stderr. */
export function claimStdout(): void {
  if (isClaimed) return;
  isClaimed = true;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
}

/** Writes text to the real stdout. */
export function writeStdout(text: string): void {
  realStdoutWrite(text);
}

/** A command's one JSON object (bigints as decimal strings, in case one slips through). */
export function writeJson(value: object): void {
  writeStdout(JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item)) + "\n");
}

/** A line for people (human mode). */
export function writeLine(text: string): void {
  writeStdout(text.endsWith("\n") ? text : text + "\n");
}
