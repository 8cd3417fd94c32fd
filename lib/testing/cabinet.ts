import { randomUUID } from "node:crypto";
import { generate } from "otplib";
import { expect } from "vitest";
import type { ApiDeps } from "@/lib/api/deps";
import type { CabinetActionContext } from "@/lib/cabinet/action-table";
import { runCabinetAction } from "@/lib/cabinet/run-action";
import { checkPassword, completeSignIn, confirmEnrolment } from "@/lib/cabinet/sign-in";
import { isSensitiveAction } from "@/lib/cabinet/sensitive-actions";
import type { CabinetRole } from "@/lib/domain/cabinet/permissions";
import { isAppError } from "@/lib/errors";
import { showEnrolmentKey } from "@/lib/services/cabinet/enrolment";
import { openSession, type CabinetActor } from "@/lib/services/cabinet/sessions";
import { insertCabinetUser, preparePassword } from "@/lib/services/cabinet/users";
import { withTransaction } from "@/lib/db/transaction";
import { createMerchant } from "@/lib/services/merchants/create-merchant";
import { callSigned, getTestDb, getTestSecretBox, makeTestDeps, type TestMerchant } from "./harness";

// Set-up shared by the merchant cabinet's integration tests: stores with their owners, team
// members signed in (with TOTP where they need it), a clock that moves with each fresh code, and
// cabinet actions run the way a page runs them.

// ---- Constants ----

/** The password of every user these helpers create. */
export const TEST_PASSWORD = "correct horse battery";

/** Where the tests' cabinet requests come from. Only failed sign-ins are counted per address, and these helpers never fail one. */
export const TEST_ORIGIN = { ipAddress: "10.9.8.7", userAgent: "vitest" };

/** An origin of an address of its own, for tests whose failed sign-ins (counted per address) must not lock out another test. */
export const randomOrigin = () => ({ ipAddress: `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`, userAgent: "vitest" });

/** A valid tron address outside the gateway's wallets: where test payouts and refunds go. */
export const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

/** A webhook URL nothing listens on (the discard port): deliveries are recorded, never received. */
export const DEAD_HOOK = "http://127.0.0.1:9/unused";

/** A unique e-mail address, its label saying whose it is (owner, finance, …). */
export const newEmail = (label: string) => `${label}-${randomUUID()}@example.com`;

// ---- The clock ----

/**
 * ApiDeps whose clock the test moves. A TOTP code is taken once per step (30 s), so each fresh
 * code — at enrolment, at a sensitive action — moves the clock to the next step first; otherwise
 * a second code of the same user in the same step would be refused as reused.
 */
export interface MovingClock {
  deps: ApiDeps;
  /** Moves to the next 30-second step and returns the code of that step for the secret. */
  nextCode(secret: string): Promise<string>;
  /** Moves the clock by `ms` without taking a code (e.g. to order rows by creation time, or to let a lock run out). */
  advance(ms: number): void;
  /** The clock's time in whole seconds: the epoch of the current TOTP step's codes. */
  nowSeconds(): number;
}

/** A moving clock starting now, over the test database; `env` overrides the configuration (e.g. a feature turned off). */
export function movingClock(env: Record<string, string> = {}): MovingClock {
  let nowMs = Date.now();
  const nowSeconds = () => Math.floor(nowMs / 1000);
  return {
    deps: { ...makeTestDeps({}, env), now: () => new Date(nowMs) },
    nextCode: (secret) => ((nowMs += 30_000), generate({ secret, epoch: nowSeconds() })),
    advance: (ms) => void (nowMs += ms),
    nowSeconds,
  };
}

// ---- Stores and their users ----

/** A cabinet user signed in, with the TOTP secret enrolled at the first sign-in ("" for one who never enrolled). */
export interface CabinetMember {
  actor: CabinetActor;
  secret: string;
}

/** A merchant as the sign-up makes it: its owner (not yet signed in) and the unified API key, to create and pay invoices through the API. */
export async function createStore(name = "Test shop"): Promise<{ merchantId: string; ownerEmail: string; api: TestMerchant }> {
  const ownerEmail = newEmail("owner");
  const merchant = await createMerchant.prepare(undefined, { name, email: ownerEmail, password: TEST_PASSWORD });
  const { merchantId, apiKey } = await withTransaction(getTestDb(), (tx) => createMerchant.execute(tx, { secretBox: getTestSecretBox() }, merchant));
  return { merchantId, ownerEmail, api: { merchantId, publicId: apiKey.publicId, secret: apiKey.secret } };
}

/** A session for a user, opened directly: for tests of what comes after a sign-in, not of the sign-in. */
export async function openSessionFor(email: string, now = new Date()): Promise<CabinetActor> {
  const user = await getTestDb().cabinetUser.findUniqueOrThrow({ where: { email } });
  return openSession(getTestDb(), user, TEST_ORIGIN, now);
}

/** Signs a user in for the first time: password, enrolment confirmed with a code (of the next step), session. */
export async function signInFirstTime(clock: MovingClock, email: string, from = TEST_ORIGIN): Promise<CabinetMember & { recoveryCodes: string[] }> {
  const ticket = await checkPassword(clock.deps, { email, password: TEST_PASSWORD }, from);
  expect(ticket.purpose, "a user's first sign-in enrols a second factor").toBe("enrol");
  const { secret } = await showEnrolmentKey(clock.deps, ticket.token);
  const confirmed = await confirmEnrolment(clock.deps, { ticket: ticket.token, code: await clock.nextCode(secret) }, from);
  const actor = await completeSignIn(clock.deps, { ticket: confirmed.ticket.token, code: "" }, from);
  return { actor, secret, recoveryCodes: confirmed.recoveryCodes };
}

export interface CabinetStore {
  merchantId: string;
  api: TestMerchant;
  owner: CabinetMember;
}

/** A merchant with its owner signed in for the first time (TOTP enrolled, from `from`), and its API key. */
export async function newStore(clock: MovingClock, name?: string, from = TEST_ORIGIN): Promise<CabinetStore> {
  const store = await createStore(name);
  const { actor, secret } = await signInFirstTime(clock, store.ownerEmail, from);
  return { merchantId: store.merchantId, api: store.api, owner: { actor, secret } };
}

/**
 * Another user of the store with a role. By default finance and admin users enrol TOTP (they act
 * with fresh codes) and a viewer (who only reads) is just signed in; `enrol: false` signs any role
 * in without a second factor, for actions it may not run anyway.
 */
export async function addMember(clock: MovingClock, merchantId: string, role: CabinetRole, options: { enrol?: boolean } = {}): Promise<CabinetMember> {
  const email = newEmail(role);
  const user = await insertCabinetUser(getTestDb(), { merchantId, email, passwordHash: await preparePassword(TEST_PASSWORD), role }, clock.deps.now());
  if (options.enrol ?? role !== "viewer") {
    const { actor, secret } = await signInFirstTime(clock, email);
    return { actor, secret };
  }
  return { actor: await openSession(getTestDb(), user, TEST_ORIGIN, clock.deps.now()), secret: "" };
}

// ---- Running cabinet actions ----

type ActionAnswer = Awaited<ReturnType<typeof runCabinetAction>>;

/** What the page hands the runner for a member. */
export function actionContext(clock: MovingClock, member: CabinetMember): CabinetActionContext {
  return { deps: clock.deps, actor: member.actor, origin: TEST_ORIGIN };
}

/** Runs a cabinet action through the one runner, with the code given (none by default). */
export function act(clock: MovingClock, member: CabinetMember, name: string, input: unknown, code?: string) {
  return runCabinetAction(actionContext(clock, member), name, input, code);
}

/** Runs an action with a fresh code of the member's authenticator. */
export async function actWithCode(clock: MovingClock, member: CabinetMember, name: string, input: unknown) {
  return act(clock, member, name, input, await clock.nextCode(member.secret));
}

/** Runs an action as a page does: with a fresh code exactly when the action is sensitive. */
export async function actAsPage(clock: MovingClock, member: CabinetMember, name: string, input: unknown) {
  return act(clock, member, name, input, isSensitiveAction(name) ? await clock.nextCode(member.secret) : undefined);
}

/** The code of a refused action; throws if it succeeded. */
export function refusal(answer: ActionAnswer): string {
  if (answer.ok) throw new Error(`expected a refusal, got ${JSON.stringify(answer.result)}`);
  return answer.code;
}

/** The result of a successful action; throws if it was refused, naming `label` (the action) where given. */
export function success<T = Record<string, any>>(answer: ActionAnswer, label?: string): T {
  if (!answer.ok) throw new Error(`${label ? `${label}: ` : ""}expected success, got ${answer.code}: ${answer.message}`);
  return answer.result as T;
}

/** The code of the AppError a refused call throws; fails if it resolves or throws anything else. */
export async function refusalCodeOf(refused: Promise<unknown>): Promise<string> {
  try {
    await refused;
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}

// ---- Reading what happened ----

export interface AuditEntry {
  action: string;
  outcome: string;
  userId: string | null;
  detail: Record<string, any>;
}
type AuditField = keyof AuditEntry;

/**
 * A store's audit rows, oldest first, cut to `fields` so tests can compare whole rows. One action
 * by name gives every field but the action (it would only repeat it); a family of actions
 * ({ startsWith: "payout." }) gives every field.
 */
export async function auditOf(merchantId: string, action: string): Promise<Omit<AuditEntry, "action">[]>;
export async function auditOf(merchantId: string, family: { startsWith: string }): Promise<AuditEntry[]>;
export async function auditOf<F extends AuditField>(merchantId: string, action: string | { startsWith: string }, fields: readonly F[]): Promise<Pick<AuditEntry, F>[]>;
export async function auditOf(merchantId: string, action: string | { startsWith: string }, fields?: readonly AuditField[]): Promise<Partial<AuditEntry>[]> {
  const picked = fields ?? (typeof action === "string" ? (["outcome", "userId", "detail"] as const) : (["action", "outcome", "userId", "detail"] as const));
  const events = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId, action }, orderBy: { createdAt: "asc" } });
  return events.map((event) => Object.fromEntries(picked.map((field) => [field, event[field]])) as Partial<AuditEntry>);
}

/** Every line of a streamed export (CSV), header first. */
export async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** An invoice of 50 USD in USDT on tron, paid `factor` times its amount, its term over (under- or overpaid: wrong_amount); as /v1/payment/info shows it. */
export async function endedPayment(merchant: TestMerchant, factor: number) {
  const invoice = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
  const paid = (Number(invoice.payer_amount) * factor).toFixed(6);
  await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: paid }, merchant);
  await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
  await callSigned("/v1/sandbox/expire", { uuid: invoice.uuid }, merchant);
  return (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant)).body.result;
}
