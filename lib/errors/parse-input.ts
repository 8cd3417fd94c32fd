import type { z } from "zod";
import { AppError } from "./app-error";
import { ERROR_CATALOGUE, type ErrorCode } from "./catalogue";

/** How an input is checked and what a failure is called: the operation's code, or a field's own. */
export interface InputSpec<Schema extends z.ZodType> {
  schema: Schema;
  /** The code for input that fails the schema, unless its field names its own in `fieldErrors`. */
  invalidBody: ErrorCode;
  fieldErrors?: Partial<Record<string, ErrorCode>>;
}

/**
 * Checks an input (a request body, or one element of a batch) and answers a documented code for
 * anything wrong with it — the same code wherever the same input arrives. A NUL anywhere is
 * refused like any bad field: no stored text may hold one (PostgreSQL refuses the byte).
 */
export function parseInput<Schema extends z.ZodType>(spec: InputSpec<Schema>, input: unknown): z.output<Schema> {
  const nulPath = findNulCharacter(input);
  if (nulPath) throw invalidField(spec, nulPath, "contains a NUL character");
  const parsed = spec.schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidField(spec, issue?.path ?? [], issue?.message ?? "invalid");
  }
  return parsed.data;
}

/** The field's own code where it names one, else the operation's: a nested field may name its own ("accepted.network"). */
function invalidField(spec: Pick<InputSpec<z.ZodType>, "invalidBody" | "fieldErrors">, path: readonly PropertyKey[], reason: string): AppError {
  const namedPath = path.filter((part) => typeof part === "string").join(".");
  const field = typeof path[0] === "string" ? path[0] : undefined;
  // Own keys only: an input field named "__proto__" must not read the prototype.
  const codeOf = (name: string | undefined) => (name && spec.fieldErrors && Object.hasOwn(spec.fieldErrors, name) ? spec.fieldErrors[name] : undefined);
  const code = codeOf(namedPath) || codeOf(field) || spec.invalidBody;
  const where = path.length ? `${path.map(String).join(".")}: ` : "";
  return new AppError(code, `${ERROR_CATALOGUE[code].message} (${where}${reason})`);
}

/** The path of the first string (value or key) holding U+0000 in parsed JSON, or null. */
export function findNulCharacter(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findNulCharacter(value[index], [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes("\u0000")) return [...path, key];
      const found = findNulCharacter(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
