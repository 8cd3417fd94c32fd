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

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
