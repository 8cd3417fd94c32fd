import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { defineOperation, type OperationEntry } from "@/lib/api/operation";
import { callApi, makeMerchant, signedRequest, type TestMerchant } from "@/lib/testing/harness";
import { log, setLogOutput } from "@/lib/log";
import { REQUEST_LOG_MESSAGE } from "@/lib/api/request-log";
// The service's request path, which installs the request log as `npm start` does.
import "@/lib/api/handle-request";

/** A signed operation that logs from inside and ends as the body asks. */
const loggingOp = defineOperation({
  schema: z.object({ end: z.enum(["ok", "refused", "busy", "crash"]) }),
  invalidBody: "payment.bad_request",
  summary: "Log from inside an operation (test operation)",
  response: z.object({ id: z.string() }),
  errors: ["payment.not_found"],
  async handle(input, context) {
    log.info("inside the operation", { id: context.params.id });
    if (input.end === "refused") throw new AppError("payment.not_found");
    if (input.end === "busy") throw new AppError("request.busy");
    if (input.end === "crash") throw new Error("ledger write failed", { cause: new Error("connection reset by peer") });
    return { id: context.params.id };
  },
});

const TABLE: OperationEntry[] = [
  { method: "POST", path: "/v1/test/log/{id}", auth: { kind: "signed", keys: ["unified"] }, idempotent: false, envelope: "standard", operation: loggingOp },
];

const written: string[] = [];
let restoreLogOutput: () => void;
beforeAll(() => {
  restoreLogOutput = setLogOutput({ level: "debug", destination: { write: (line) => void written.push(line) } });
});
afterAll(() => restoreLogOutput());

/** The lines written for one request id. */
function linesOf(requestId: string): Record<string, any>[] {
  return written.map((line) => JSON.parse(line) as Record<string, any>).filter((line) => line.request_id === requestId);
}

function requestLinesOf(requestId: string): Record<string, any>[] {
  return linesOf(requestId).filter((line) => line.msg === REQUEST_LOG_MESSAGE);
}

async function call(merchant: TestMerchant, end: string, headers: Record<string, string> = {}) {
  const response = await callApi(signedRequest("/v1/test/log/inv-42", JSON.stringify({ end }), merchant, { headers }), { table: TABLE, clientIp: "198.51.100.7" });
  const requestId = response.headers.get("x-request-id");
  expect(requestId).toMatch(/^\S+$/);
  return { ...response, requestId: requestId! };
}

describe("request log", () => {
  it("writes exactly one line for a signed call: its request id, operation template, merchant, code", async () => {
    const merchant = await makeMerchant();
    const response = await call(merchant, "ok");
    expect(response.status).toBe(200);
    expect(response.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    const lines = requestLinesOf(response.requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      level: "info",
      time: expect.any(String),
      msg: REQUEST_LOG_MESSAGE,
      request_id: response.requestId,
      method: "POST",
      operation: "/v1/test/log/{id}",
      path: "/v1/test/log/inv-42",
      merchant_id: merchant.merchantId,
      status: 200,
      code: "ok",
      duration_ms: expect.any(Number),
      client_ip: "198.51.100.7",
    });
  });

  it("gives the request's id and merchant to the lines logged while handling it", async () => {
    const merchant = await makeMerchant();
    const response = await call(merchant, "ok");
    const inside = linesOf(response.requestId).filter((line) => line.msg === "inside the operation");
    expect(inside).toEqual([expect.objectContaining({ level: "info", request_id: response.requestId, merchant_id: merchant.merchantId, id: "inv-42" })]);
  });

  it("keeps the caller's own well-formed X-Request-Id", async () => {
    const merchant = await makeMerchant();
    const requestId = `trace-${randomUUID()}`;
    const response = await call(merchant, "ok", { "x-request-id": requestId });
    expect(response.requestId).toBe(requestId);
    expect(requestLinesOf(requestId)).toHaveLength(1);
  });

  it("logs a refusal as information carrying its code", async () => {
    const merchant = await makeMerchant();
    const response = await call(merchant, "refused");
    expect(response.status).toBe(404);
    expect(requestLinesOf(response.requestId)).toEqual([
      expect.objectContaining({ level: "info", status: 404, code: "payment.not_found", operation: "/v1/test/log/{id}", merchant_id: merchant.merchantId }),
    ]);
  });

  it("logs a refused signature without a merchant", async () => {
    const merchant = await makeMerchant();
    const request = signedRequest("/v1/test/log/inv-42", JSON.stringify({ end: "ok" }), merchant, { signature: "0".repeat(64) });
    const response = await callApi(request, { table: TABLE });
    const requestId = response.headers.get("x-request-id")!;
    expect(response.status).toBe(401);
    expect(requestLinesOf(requestId)).toEqual([expect.objectContaining({ level: "info", status: 401, code: "merchant.bad_signature", merchant_id: null })]);
    expect(JSON.stringify(linesOf(requestId))).not.toContain(merchant.secret);
  });

  it("logs a temporary failure (503) as a warning", async () => {
    const merchant = await makeMerchant();
    const response = await call(merchant, "busy");
    expect(response.status).toBe(503);
    expect(requestLinesOf(response.requestId)).toEqual([expect.objectContaining({ level: "warn", status: 503, code: "request.busy" })]);
  });

  it("logs an unexpected failure (500) once, as an error with its stack and cause", async () => {
    const merchant = await makeMerchant();
    const before = written.length;
    const response = await call(merchant, "crash");
    expect(response.status).toBe(500);
    expect(response.body.error.message).not.toContain("ledger write failed");
    // Every error line of the call, with or without its request id: the failure is told once.
    const lines = written
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, any>)
      .filter((line) => line.level === "error");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: REQUEST_LOG_MESSAGE, status: 500, code: "internal.error", merchant_id: merchant.merchantId });
    expect(lines[0].error).toMatchObject({ type: "Error", message: "ledger write failed", cause: { message: "connection reset by peer" } });
    expect(lines[0].error.stack).toContain("ledger write failed");
  });

  it("names the operation's template for a public operation of the real table", async () => {
    const id = randomUUID();
    const response = await callApi(new Request(`http://gateway.test/v1/pay/${id}`));
    const requestId = response.headers.get("x-request-id")!;
    expect(response.status).toBe(404);
    expect(requestLinesOf(requestId)).toEqual([
      expect.objectContaining({ method: "GET", operation: "/v1/pay/{id}", path: `/v1/pay/${id}`, status: 404, code: response.body.error.code, merchant_id: null }),
    ]);
  });

  it("logs a path no operation serves, without its operation", async () => {
    const response = await callApi(new Request("http://gateway.test/v1/no/such/thing", { method: "POST", body: "{}" }));
    const requestId = response.headers.get("x-request-id")!;
    expect(requestLinesOf(requestId)).toEqual([expect.objectContaining({ operation: null, path: "/v1/no/such/thing", status: 404, code: "request.not_found" })]);
  });
});
