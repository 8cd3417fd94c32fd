/**
 * What a log line may hold: values made JSON-ready (bigints as strings, errors with stack and
 * cause) and cleaned of secrets, at any depth. A key that names a secret has its value replaced
 * whole; e-mail addresses, URL passwords, secret query parameters and claim tokens are cut out of
 * every string. pino's own `redact` is not used: its paths stop at a fixed depth and name keys
 * exactly, while a secret may sit anywhere under any spelling (`webhookSecret`, `X-Signature`).
 */

export const REDACTED = "[redacted]";
export const EMAIL_REPLACEMENT = "[email]";

/** Words of a key (`privateKey` → private, key; `X-Webhook-Signature` → x, webhook, signature) that mark its value secret. */
const SECRET_WORDS = new Set([
  "secret",
  "secrets",
  "password",
  "passwords",
  "passwd",
  "passphrase",
  "mnemonic",
  "mnemonics",
  "seed",
  "seeds",
  "signature",
  "signatures",
  "token",
  "tokens",
  "cookie",
  "cookies",
  "authorization",
  "totp",
  "otp",
  "otpauth",
  "credential",
  "credentials",
  "xprv",
  "wif",
]);

/** Pairs of adjacent words that name a secret though neither does alone. */
const SECRET_PHRASES = new Set(["private key", "master key", "secret key", "signing key", "api key", "recovery code", "recovery codes", "session id"]);

// Lines repeat the same few field names; the cap keeps keys of arbitrary maps from growing it.
const secretKeyCache = new Map<string, boolean>();

/** Whether a field of this name may never reach a log line. */
export function isSecretKey(key: string): boolean {
  const known = secretKeyCache.get(key);
  if (known !== undefined) return known;
  const isSecret = nameSaysSecret(key);
  if (secretKeyCache.size < 2000) secretKeyCache.set(key, isSecret);
  return isSecret;
}

function nameSaysSecret(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((word, i) => SECRET_WORDS.has(word) || (i > 0 && SECRET_PHRASES.has(`${words[i - 1]} ${word}`)));
}

// Cheap on purpose: anything shaped like local@domain.tld; a few false hits cost nothing.
const EMAIL = /[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi;
// `scheme://user:password@host`: the user is kept, the password is not.
const URL_PASSWORD = /(\/\/[^\s/:@]*:)[^\s/@]*@/g;
// `?secret=…` of an otpauth:// URL, `&token=…` and the like.
const SECRET_QUERY_PARAMETER = /([?&][\w-]*?(?:secret|token|signature|password|key)=)[^&#\s"]*/gi;
// A claim URL's token grants its money (a template's `{token}` or `<token>` is left alone).
const CLAIM_TOKEN = /(\/claim\/)[^/\s?#"{<][^/\s?#"]*/g;

/** A string with its e-mail addresses, URL passwords, secret query parameters and claim tokens replaced. */
export function scrubText(text: string): string {
  let scrubbed = text;
  if (scrubbed.includes("@")) scrubbed = scrubbed.replace(URL_PASSWORD, `$1${REDACTED}@`).replace(EMAIL, EMAIL_REPLACEMENT);
  if (scrubbed.includes("=")) scrubbed = scrubbed.replace(SECRET_QUERY_PARAMETER, `$1${REDACTED}`);
  if (scrubbed.includes("/claim/")) scrubbed = scrubbed.replace(CLAIM_TOKEN, `$1${REDACTED}`);
  return scrubbed;
}

const MAX_DEPTH = 10;

/** A value as a log line may hold it: JSON-ready, secrets removed, at any depth. */
export function scrubLogValue(value: unknown): unknown {
  return scrub(value, 0, new Set());
}

/** The fields of a line, each scrubbed (a secret key at the top is redacted too). */
export function scrubLogFields(fields: Record<string, unknown>): Record<string, unknown> {
  return scrubObjectEntries(Object.entries(fields), 0, new Set());
}

function scrub(value: unknown, depth: number, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case "string":
      return scrubText(value);
    case "bigint":
      return value.toString();
    case "number":
    case "boolean":
    case "undefined":
      return value;
    case "function":
    case "symbol":
      return undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  // Raw bytes may be key material; their length is all a log needs.
  if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) return `[${object.byteLength} bytes]`;
  ancestors.add(object);
  try {
    if (object instanceof Error) return scrubError(object, depth, ancestors);
    if (Array.isArray(object)) return object.map((item) => scrub(item, depth + 1, ancestors) ?? null);
    if (object instanceof Map) return scrubObjectEntries([...object.entries()].map(([key, item]) => [String(key), item]), depth, ancestors);
    if (object instanceof Set) return [...object].map((item) => scrub(item, depth + 1, ancestors) ?? null);
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return scrub(toJSON.call(object), depth, ancestors); // Date, Decimal, URL
    return scrubObjectEntries(Object.entries(object), depth, ancestors);
  } finally {
    ancestors.delete(object);
  }
}

function scrubObjectEntries(entries: [string, unknown][], depth: number, ancestors: Set<object>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    if (isSecretKey(key)) {
      if (item !== undefined) result[key] = item === null ? null : REDACTED;
      continue;
    }
    const scrubbed = scrub(item, depth + 1, ancestors);
    if (scrubbed !== undefined) result[key] = scrubbed;
  }
  return result;
}

/** An error with what is needed to find its origin: type, message, stack, own fields (code, …) and its cause chain. */
function scrubError(error: Error, depth: number, ancestors: Set<object>): Record<string, unknown> {
  const own = scrubObjectEntries(
    Object.entries(error).filter(([key]) => key !== "cause" && key !== "name"),
    depth,
    ancestors,
  );
  const result: Record<string, unknown> = { type: error.name, message: scrubText(error.message), ...own, stack: error.stack === undefined ? undefined : scrubText(error.stack) };
  if (error.cause !== undefined) result.cause = scrub(error.cause, depth + 1, ancestors);
  if (error instanceof AggregateError) result.errors = scrub(error.errors, depth + 1, ancestors);
  return result;
}
