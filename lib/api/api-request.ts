import { AppError, isAppError } from "@/lib/errors";

/** The headers the dispatcher reads: a fetch `Headers` is one, and so is a node request's view. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * What the dispatcher reads of a request, whichever server received it: `npm start`'s node
 * server answers /v1 without building fetch objects, Next's route handler passes its Request.
 */
export interface ApiRequest {
  method: string;
  /** The path (decoded as a URL parser normalises it) and the query with its "?", as signed. */
  pathname: string;
  search: string;
  headers: HeaderReader;
  /** The body bytes exactly as sent; `request.too_large` past `maxBytes`, `auth.body_read` when reading fails. */
  readBody(maxBytes: number): Promise<Uint8Array>;
}

/** What the dispatcher answers: written to a node response or wrapped in a fetch Response. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  bodyText: string;
}

/** A fetch Request as the dispatcher reads it (Next's route handler, tests). */
export function apiRequestFromFetch(request: Request): ApiRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    pathname: url.pathname,
    search: url.search,
    headers: request.headers,
    readBody: (maxBytes) => readFetchBody(request, maxBytes),
  };
}

export function answerAsResponse(answer: ApiAnswer): Response {
  return new Response(answer.bodyText, { status: answer.status, headers: answer.headers });
}

/** Refuses a declared length over the limit before reading; stops reading once the limit is passed. */
async function readFetchBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw new AppError("request.too_large");
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new AppError("request.too_large");
      }
      chunks.push(value);
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new AppError("auth.body_read", undefined, { cause: error });
  }
  return Buffer.concat(chunks);
}
