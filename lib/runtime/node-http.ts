import type http from "node:http";

/**
 * A node request as the fetch Request a route handler receives: the body bytes exactly as they
 * arrived (signatures are over them) and every header value kept. At most `maxBodyBytes + 1`
 * bytes are kept (the rest is read and dropped), so a handler that refuses bodies over
 * `maxBodyBytes` sees that it is too large without the whole of it ever being held.
 */
export async function toFetchRequest(request: http.IncomingMessage, origin: string, maxBodyBytes = Number.POSITIVE_INFINITY): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  let body: Buffer<ArrayBuffer> | undefined;
  if (hasBody) {
    const chunks: Buffer[] = [];
    let kept = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      if (kept > maxBodyBytes) continue;
      chunks.push(chunk);
      kept += chunk.byteLength;
    }
    body = Buffer.concat(chunks);
  }
  return new Request(new URL(request.url ?? "/", origin), { method: request.method, headers, body });
}

/** Writes a fetch Response to a node response. */
export async function writeFetchResponse(response: Response, outgoing: http.ServerResponse): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(body);
}
