import type { Translate } from "@/lib/i18n/translator";
import type { PublicPaymentObject } from "@/lib/services/hosted/page-data";

/** An answer of a public `/v1` operation: its `result`, or the API's error (`network` when unreachable). */
export type PublicApiResult<Result> = { ok: true; result: Result } | { ok: false; code: string; message: string };

/** An answer of a public `/v1/pay/{id}` operation: the payment, or the API's error. */
export type PayApiResult = { ok: true; payment: PublicPaymentObject } | { ok: false; code: string; message: string };

/** Codes of answers that never reached the API's own logic: the page says "check your connection". */
export function isConnectionProblem(code: string): boolean {
  return code === "network" || code.startsWith("http.");
}

/** Calls a public operation (no signature) from the browser. */
export async function callPublicApi<Result>(path: string, init?: RequestInit): Promise<PublicApiResult<Result>> {
  let response: Response;
  try {
    response = await fetch(path, { cache: "no-store", ...init, headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}) } });
  } catch {
    return { ok: false, code: "network", message: "" };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, code: `http.${response.status}`, message: "" };
  }
  const envelope = body as { state?: number; result?: Result; error?: { code?: string; message?: string }; message?: string };
  if (response.ok && envelope.state === 0 && envelope.result !== undefined) return { ok: true, result: envelope.result };
  if (envelope.error) return { ok: false, code: envelope.error.code ?? "unknown", message: envelope.error.message ?? "" };
  // spec: a 429 has the body {state: 1, message} without an error object.
  return { ok: false, code: `http.${response.status}`, message: envelope.message ?? "" };
}

async function callPayApi(path: string, init?: RequestInit): Promise<PayApiResult> {
  const answer = await callPublicApi<PublicPaymentObject>(path, init);
  return answer.ok ? { ok: true, payment: answer.result } : answer;
}

export function fetchPayment(id: string): Promise<PayApiResult> {
  return callPayApi(`/v1/pay/${encodeURIComponent(id)}`);
}

export function selectMethod(id: string, method: { currency: string; network: string }): Promise<PayApiResult> {
  return callPayApi(`/v1/pay/${encodeURIComponent(id)}/select`, { method: "POST", body: JSON.stringify(method) });
}

export function payWithSandboxWallet(id: string, step: "send" | "confirm"): Promise<PayApiResult> {
  return callPayApi(`/v1/pay/${encodeURIComponent(id)}/sandbox-pay`, { method: "POST", body: JSON.stringify({ step }) });
}

/** What a refusal says to the visitor: the service's own words, or "check your connection" in the page's language. */
export function describeApiFailure(t: Translate, failure: { code: string; message: string }): string {
  return isConnectionProblem(failure.code) || !failure.message ? t("common.connectionError") : failure.message;
}
