export { AppError, isAppError } from "./app-error";
export { ERROR_CATALOGUE, httpStatusOf, isErrorCode, type ErrorCode } from "./catalogue";
export { findNulCharacter, parseInput, type InputSpec } from "./parse-input";
