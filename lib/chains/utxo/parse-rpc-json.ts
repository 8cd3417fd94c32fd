/**
 * Every JSON token: a string (kept whole, so digits inside it are never touched) or a number.
 * The string branch is written as an unrolled loop so that megabyte-long hex strings do not build
 * up regular-expression backtracking state.
 */
const TOKEN_PATTERN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

const INTEGER_PATTERN = /^-?\d+$/;

/**
 * Parses a node's JSON answer without ever turning a decimal into a float: every number that is not
 * a safe integer (amounts such as `1.23456789`, fee rates, difficulty) arrives as the exact text the
 * node wrote, e.g. `"1.23456789"`; safe integers (heights, counts, indexes) stay numbers.
 *
 * Why not a reviver: `JSON.parse` hands a reviver the already-rounded float, and the source-text
 * access that would fix that (`context.source`) does not exist on Node 20. So number tokens are
 * quoted in the raw text first; a token inside a JSON string is matched as part of that string and
 * left alone. Throws SyntaxError for text that is not JSON, like `JSON.parse`.
 */
export function parseRpcJson(text: string): unknown {
  const quoted = text.replace(TOKEN_PATTERN, (token) => {
    if (token.startsWith('"')) return token;
    if (INTEGER_PATTERN.test(token) && Number.isSafeInteger(Number(token))) return token;
    return `"${token}"`;
  });
  return JSON.parse(quoted);
}
