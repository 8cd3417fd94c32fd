import type http from "node:http";
import { errorBody } from "@/lib/api/envelope";
import { answerApiRequest } from "@/lib/api/handle-request";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { apiRequestFromNode, writeAnswer } from "./node-http";

/** Whether a request target is the signed API's (`/v1` and below). */
export function isApiPath(target: string | undefined): boolean {
  return target !== undefined && (target === "/v1" || target.startsWith("/v1/") || target.startsWith("/v1?"));
}

// Only the path and query are read from a request's URL (the signature covers them); a fixed
// origin keeps a malformed Host header from mattering.
const ORIGIN = "http://gateway.invalid";

/** Answers one /v1 request from the node server, without going through Next.js or fetch objects. */
export async function serveApiRequest(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  try {
    writeAnswer(await answerApiRequest(apiRequestFromNode(request, ORIGIN)), response);
  } catch (error) {
    // The dispatcher answers every failure itself; this is the connection failing under it.
    log.warn("an API request could not be answered", { error });
    if (response.headersSent) return void response.end();
    // The body every other unexpected failure gets from the dispatcher.
    const { status, body } = errorBody(new AppError("internal.error"));
    response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    response.end(JSON.stringify(body));
  }
}
