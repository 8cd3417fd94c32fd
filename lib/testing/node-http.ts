import type http from "node:http";

/**
 * A node request as the fetch Request a route handler receives: the body bytes exactly as they
 * arrived (signatures are over them) and every header value kept.
 */
export async function toFetchRequest(request: http.IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(new URL(request.url ?? "/", origin), { method: request.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined });
}

/** Writes a fetch Response to a node response. */
export async function writeFetchResponse(response: Response, outgoing: http.ServerResponse): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(body);
}
