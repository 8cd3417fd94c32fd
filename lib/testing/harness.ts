import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { loadConfig, type GatewayConfig } from "@/lib/config/env";
import { createDb, type Db } from "@/lib/db/client";
import { createSecretBox, type SecretBox } from "@/lib/crypto/secret-box";
import { issueApiKey } from "@/lib/auth/api-keys";
import type { ApiKeyKind } from "@/lib/auth/api-key-identity";
import { createApiDeps, type ApiDeps } from "@/lib/api/deps";
import { createRouter, dispatchFetch, type Router } from "@/lib/api/dispatch";
import { OPERATIONS } from "@/lib/api/operations";
import type { OperationEntry } from "@/lib/api/operation";
import { signRequest } from "@/lib/api/signature";

/** A fixed master key for tests; never used outside them. */
export const TEST_MASTER_KEY = "7e".repeat(32);

let sharedDb: Db | undefined;

/** The run's migrated test database (see global-setup.ts). */
export function getTestDb(): Db {
  sharedDb ??= createDb(inject("databaseUrl"), { poolSize: 8 });
  return sharedDb;
}

export function getTestSecretBox(): SecretBox {
  return createSecretBox(Buffer.from(TEST_MASTER_KEY, "hex"));
}

export function makeTestConfig(overrides: Record<string, string> = {}): GatewayConfig {
  return loadConfig({
    DATABASE_URL: inject("databaseUrl"),
    GATEWAY_MASTER_KEY: TEST_MASTER_KEY,
    GATEWAY_SANDBOX: "1",
    GATEWAY_ALLOW_LOOPBACK_URLS: "1",
    GATEWAY_WEBHOOK_TIMEOUT_MS: "3000",
    GATEWAY_RATE_LIMIT_RPS: "100000",
    GATEWAY_RATE_LIMIT_BURST: "100000",
    PUBLIC_BASE_URL: "http://gateway.test",
    ...overrides,
  });
}

/** Collaborators over the test database, with optional overrides (clock, limiter, …). */
export function makeTestDeps(overrides: Partial<ApiDeps> = {}, env: Record<string, string> = {}): ApiDeps {
  return { ...createApiDeps(makeTestConfig(env), getTestDb(), getTestSecretBox()), ...overrides };
}

export interface TestMerchant {
  merchantId: string;
  publicId: string;
  secret: string;
}

/** A fresh merchant with one API key of the given kind, so tests never share rows. */
export async function makeMerchant(options: { kind?: ApiKeyKind; name?: string; deps?: Pick<ApiDeps, "db" | "secretBox"> } = {}): Promise<TestMerchant> {
  const db = options.deps?.db ?? getTestDb();
  const merchantId = randomUUID();
  await db.merchant.create({ data: { id: merchantId, name: options.name ?? `Test merchant ${merchantId.slice(0, 8)}` } });
  const key = await issueApiKey(db, options.deps?.secretBox ?? getTestSecretBox(), merchantId, options.kind ?? "unified");
  return { merchantId, publicId: key.publicId, secret: key.secret };
}

/**
 * Another key of a merchant. It answers to a person of its own unless `owner` names one (four
 * eyes compare people): by default a new admin of the store (enrolled) made it.
 */
export async function addApiKey(merchantId: string, kind: ApiKeyKind, owner?: string): Promise<TestMerchant> {
  let person = owner;
  if (person === undefined) {
    const id = randomUUID();
    await getTestDb().cabinetUser.create({ data: { id, merchantId, email: `admin-${id}@example.com`, passwordHash: "unused", role: "admin", totpSecretCiphertext: "unused", totpEnabledAt: new Date() } });
    person = `user:${id}`;
  }
  const key = await issueApiKey(getTestDb(), getTestSecretBox(), merchantId, kind, person);
  return { merchantId, publicId: key.publicId, secret: key.secret };
}

export interface SignedRequestOptions {
  method?: string;
  timestamp?: number | string | null;
  signature?: string;
  publicId?: string | null;
  headers?: Record<string, string>;
  /** Bytes sent instead of the signed body (to prove the signature covers the raw bytes). */
  sentBody?: string | Uint8Array<ArrayBuffer>;
}

/** Builds a request signed as an integrator would sign it. */
export function signedRequest(path: string, body: string, key: Pick<TestMerchant, "publicId" | "secret">, options: SignedRequestOptions = {}): Request {
  const method = options.method ?? "POST";
  const timestamp = options.timestamp === undefined ? String(Math.floor(Date.now() / 1000)) : options.timestamp;
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (timestamp !== null) headers["x-timestamp"] = String(timestamp);
  if (options.publicId !== null) headers["x-public-id"] = options.publicId ?? key.publicId;
  headers["x-signature"] = options.signature ?? signRequest(key.secret, String(timestamp), method, path, body);
  const sent = options.sentBody ?? body;
  return new Request(`http://gateway.test${path}`, { method, headers, body: method === "GET" ? undefined : sent });
}

let defaultRouter: Router | undefined;

/** Sends a request through the real dispatcher, as the route handler does. */
export async function callApi(
  request: Request,
  options: { deps?: ApiDeps; clientIp?: string; table?: readonly OperationEntry[] } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const router = options.table ? createRouter(options.table) : (defaultRouter ??= createRouter(OPERATIONS));
  const response = await dispatchFetch(request, { deps: options.deps ?? makeTestDeps(), clientIp: options.clientIp ?? "127.0.0.1", router });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the assertion to show.
  }
  return { status: response.status, headers: response.headers, body };
}

/** Shorthand: a signed POST of a JSON value by a merchant's key. */
export function callSigned(path: string, value: unknown, key: TestMerchant, options: { deps?: ApiDeps; clientIp?: string; headers?: Record<string, string> } = {}) {
  return callApi(signedRequest(path, JSON.stringify(value), key, { headers: options.headers }), options);
}
