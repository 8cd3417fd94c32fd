import { ERROR_CATALOGUE, type ErrorCode } from "./catalogue";

/** The one error class of the service: a catalogue code plus an optional human message. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message?: string, options?: { cause?: unknown }) {
    super(message ?? ERROR_CATALOGUE[code].message, options);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
  }
}

/**
 * By brand, not only by class: the server runs some modules twice (the bundled route code and
 * the worker's), and an error thrown by one copy must still be recognised by the other.
 */
export function isAppError(error: unknown): error is AppError {
  if (error instanceof AppError) return true;
  return error instanceof Error && error.name === "AppError" && typeof (error as AppError).code === "string" && typeof (error as AppError).status === "number";
}
