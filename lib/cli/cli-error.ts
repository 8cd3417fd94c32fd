import { isAppError } from "@/lib/errors";

/**
 * Codes of refusals that only the operator CLI makes (the API's own codes, from
 * lib/errors/catalogue.ts, pass through unchanged when a service refuses).
 */
export type CliErrorCode =
  /** The command line is wrong: unknown command, missing or malformed option. */
  | "cli.usage"
  /** The merchant, key, batch, payout or event named does not exist. */
  | "cli.not_found"
  /** The command drives sandbox chains and sandbox mode is off. */
  | "cli.sandbox_off"
  /** What the command waited for did not happen in time. */
  | "cli.timeout"
  /** Anything unexpected (the message says what). */
  | "cli.failed";

/** A refusal of the CLI itself: a code for scripts, a message for people. */
export class CliError extends Error {
  readonly code: CliErrorCode;
  constructor(code: CliErrorCode, message: string) {
    super(message);
    this.name = "CliError";
    this.code = code;
  }
}

/** The code and message a failure is reported with (`{"error": {code, message}}` under --json). */
export function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof CliError) return { code: error.code, message: error.message };
  if (isAppError(error)) return { code: error.code, message: error.message };
  return { code: "cli.failed", message: error instanceof Error ? error.message : String(error) };
}
