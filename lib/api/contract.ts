import fs from "node:fs";
import { isDeepStrictEqual } from "node:util";
import type { ErrorCode } from "@/lib/errors";
import type { RequestOutcome } from "./request-observation";
import type { OperationEntry } from "./operation";

const ANY_OPERATION: readonly ErrorCode[] = ["internal.error", "request.busy"];
const WITH_BODY: readonly ErrorCode[] = ["request.bad_json", "request.too_large", "auth.body_read"];
const SIGNED: readonly ErrorCode[] = ["auth.bad_timestamp", "merchant.unknown_key", "merchant.bad_signature", "auth.ip_not_allowed", "merchant.wrong_key_kind"];
const IDEMPOTENT: readonly ErrorCode[] = ["idempotency.bad_key", "idempotency.in_progress", "idempotency.key_reused", "idempotency.unavailable"];

/**
 * Every code an operation can answer: those of transport, authentication and idempotency (from
 * its row of the table), those of its input checks, and its own. The API document lists these,
 * and the contract check refuses any other.
 */
export function documentedErrorCodes(entry: OperationEntry): ErrorCode[] {
  const { input, docs } = entry.operation;
  const codes = new Set<ErrorCode>([
    ...ANY_OPERATION,
    ...(entry.method === "POST" ? WITH_BODY : []),
    ...(entry.auth.kind === "signed" ? SIGNED : []),
    ...(entry.idempotent ? IDEMPOTENT : []),
    input.invalidBody,
    ...Object.values(input.fieldErrors ?? {}).filter((code): code is ErrorCode => code !== undefined),
    ...docs.errors,
  ]);
  return [...codes];
}

/** The `result` of a success as the document describes it: inside the envelope, or the whole body. */
export function resultOf(entry: OperationEntry, body: unknown): unknown {
  return entry.envelope === "standard" ? (body as { result?: unknown } | null)?.result : body;
}

/**
 * Whether an answer keeps the document's promises: a success matches the operation's response
 * schema exactly (no field the document does not name), a refusal uses a code the document lists.
 * Off in production; the test suites turn it on (GATEWAY_CONTRACT=check), so every request any
 * test makes also checks the document. `record` writes what was answered to GATEWAY_CONTRACT_LOG.
 */
export function contractViolation(outcome: RequestOutcome): string | null {
  const mode = process.env.GATEWAY_CONTRACT;
  // Never in production: an answer already committed must not turn into a 500 there.
  if ((mode !== "check" && mode !== "record") || process.env.NODE_ENV === "production") return null;
  const { entry } = outcome;
  if (!entry || outcome.status === 429) return null;
  if (mode === "record") {
    const line = JSON.stringify({ method: entry.method, path: entry.path, status: outcome.status, code: outcome.code });
    fs.appendFileSync(process.env.GATEWAY_CONTRACT_LOG ?? "contract-record.jsonl", line + "\n");
    return null;
  }
  const where = `${entry.method} ${entry.path}`;
  if (!entry.operation.docs?.response) return `${where} has no documented response`;
  if (outcome.code !== null) {
    return documentedErrorCodes(entry).includes(outcome.code as ErrorCode) ? null : `${where} answered ${outcome.code}, which its document does not list`;
  }
  const result = resultOf(entry, JSON.parse(outcome.bodyText));
  return responseMismatch(entry, result);
}

/** Why a result does not match the operation's response schema, or null when it does. */
export function responseMismatch(entry: OperationEntry, result: unknown): string | null {
  const where = `${entry.method} ${entry.path}`;
  const parsed = entry.operation.docs.response.safeParse(result);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${where} answered a result its schema refuses at ${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message}`;
  }
  // A schema strips fields it does not name: any difference is a field the document does not describe.
  const documented = JSON.parse(JSON.stringify(parsed.data) ?? "null");
  if (!isDeepStrictEqual(documented, result)) return `${where} answered fields its schema does not describe: ${firstDifference(result, documented)}`;
  return null;
}

function firstDifference(actual: unknown, documented: unknown, path = ""): string {
  if (actual && documented && typeof actual === "object" && typeof documented === "object") {
    for (const key of Object.keys(actual)) {
      if (!(key in documented)) return `${path}${key}`;
      const deeper = firstDifference((actual as Record<string, unknown>)[key], (documented as Record<string, unknown>)[key], `${path}${key}.`);
      if (deeper) return deeper;
    }
    return "";
  }
  return isDeepStrictEqual(actual, documented) ? "" : path || "(root)";
}
