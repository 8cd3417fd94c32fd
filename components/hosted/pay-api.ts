import type { PublicPaymentObject } from "./types";

/** An answer of a public `/v1/pay/{id}` operation: the payment, or the API's error. */
export type PayApiResult = { ok: true; payment: PublicPaymentObject } | { ok: false; code: string; message: string };

const CONNECTION_MESSAGE = "Could not reach the payment service. Check your connection and try again.";

async function callPayApi(path: string, init?: RequestInit): Promise<PayApiResult> {
  let response: Response;
  try {
    response = await fetch(path, { cache: "no-store", ...init, headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}) } });
  } catch {
    return { ok: false, code: "network", message: CONNECTION_MESSAGE };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, code: `http.${response.status}`, message: CONNECTION_MESSAGE };
  }
  const envelope = body as { state?: number; result?: PublicPaymentObject; error?: { code?: string; message?: string }; message?: string };
  if (response.ok && envelope.state === 0 && envelope.result) return { ok: true, payment: envelope.result };
  if (envelope.error) return { ok: false, code: envelope.error.code ?? "unknown", message: envelope.error.message ?? CONNECTION_MESSAGE };
  // spec: a 429 has the body {state: 1, message} without an error object.
  return { ok: false, code: `http.${response.status}`, message: envelope.message ?? CONNECTION_MESSAGE };
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
