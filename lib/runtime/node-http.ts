import type http from "node:http";
import { AppError } from "@/lib/errors";
import type { ApiAnswer, ApiRequest, HeaderReader } from "@/lib/api/api-request";

/**
 * A node request as the dispatcher reads it, without building fetch objects. `origin` only
 * completes the URL for parsing: the path and query are what the signature covers.
 */
export function apiRequestFromNode(request: http.IncomingMessage, origin: string): ApiRequest {
  const url = new URL(request.url ?? "/", origin);
  return {
    method: request.method ?? "GET",
    pathname: url.pathname,
    search: url.search,
    headers: nodeHeaderReader(request.headers),
    readBody: (maxBytes) => readNodeBody(request, maxBytes),
  };
}

/** Headers.get's answer for a node header: repeated values joined by ", ". */
function nodeHeaderReader(headers: http.IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/**
 * Reads the body, refusing a declared length over the limit before reading. Past the limit the
 * rest is read and dropped rather than the stream destroyed, so the caller still gets its 413.
 */
async function readNodeBody(request: http.IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) throw new AppError("request.too_large");
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      if (total <= maxBytes) chunks.push(chunk);
    }
  } catch (error) {
    throw new AppError("auth.body_read", undefined, { cause: error });
  }
  if (total > maxBytes) throw new AppError("request.too_large");
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** Writes an answer in one piece, its length declared (no chunked encoding). */
export function writeAnswer(answer: ApiAnswer, response: http.ServerResponse): void {
  const body = Buffer.from(answer.bodyText, "utf8");
  response.writeHead(answer.status, { ...answer.headers, "content-length": String(body.byteLength) });
  response.end(body);
}
