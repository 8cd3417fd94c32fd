import fc from "fast-check";

// Hostile input for the property-based fuzz tests (the API's operation table, the cabinet's
// action table): malformed, hostile and oversized values, and bodies made from a well-formed one
// with a field or two spoiled, so the input gets past the schema into the services.

/** Strings that have broken parsers, databases or URL handling somewhere. */
export const HOSTILE_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\uD800", "\uFFFF", "0", "-1", "1e309", "NaN", "Infinity", "0x10", "1.".repeat(40),
  "9".repeat(400), "x".repeat(5000), "' OR 1=1 --", "${jndi:ldap://x}", "<script>alert(1)</script>", "../../etc/passwd",
  "00000000-0000-0000-0000-000000000000", "not-a-uuid", "http://127.0.0.1:1/", "http://[::1]/", "file:///etc/passwd",
  "2026-13-45T99:99:99Z", "USDT", "tron", "ethereum", "BTC", "🙂", "%00", "\\u0000",
];

export const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 64 }), fc.string({ unit: "binary", maxLength: 32 }));
export const hostileNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, 1e308, Number.MIN_VALUE, 1e-10),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
export const hostileLeaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Anything JSON can hold, nested a little; objects' keys are mostly `fieldNames` (real fields, not only unknown keys). */
export function hostileValueOver(fieldNames: readonly string[]): fc.Arbitrary<unknown> {
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small", withCrossShrink: true }, hostileLeaf, fc.array(tie("value"), { maxLength: 4 }), tie("object")),
    object: fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), fc.string({ maxLength: 8 })), tie("value"), { maxKeys: 6 }),
  }));
  return value;
}

/**
 * A body: the well-formed `valid` one with fields dropped or one or two replaced by `value`s, or
 * one made of the field names, or anything `value` gives.
 */
export function hostileBody(valid: Record<string, unknown>, fieldNames: readonly string[], value: fc.Arbitrary<unknown> = hostileValueOver(fieldNames)): fc.Arbitrary<unknown> {
  const spoiled = fc
    .tuple(fc.subarray(Object.keys(valid)), fc.dictionary(fc.constantFrom(...Object.keys(valid), ...fieldNames), value, { maxKeys: 2 }))
    .map(([dropped, replaced]) => ({ ...Object.fromEntries(Object.entries(valid).filter(([key]) => !dropped.includes(key) || key in replaced)), ...replaced }));
  return fc.oneof(
    { weight: 5, arbitrary: spoiled },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...fieldNames), value, { maxKeys: 8 }) },
    { weight: 1, arbitrary: value },
  );
}

/** The fuzz tests' fixed seed: the same inputs every time (GATEWAY_FUZZ_SEED picks another). */
export const FUZZ_SEED = Number(process.env.GATEWAY_FUZZ_SEED ?? 20261124);

/** Runs per property: GATEWAY_FUZZ_RUNS, else the file's own default (smaller where each run is slow). */
export const fuzzRuns = (defaultRuns: number) => Number(process.env.GATEWAY_FUZZ_RUNS ?? defaultRuns);
