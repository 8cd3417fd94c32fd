import { randomUUID } from "node:crypto";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import type { ApiDeps } from "@/lib/api/deps";
import type { CabinetRole } from "@/lib/domain/cabinet/permissions";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { loadInvoiceDetail } from "@/lib/services/cabinet/invoice-detail";
import { confirmEnrolment, showEnrolmentKey } from "@/lib/services/cabinet/enrolment";
import { openSession, type CabinetActor } from "@/lib/services/cabinet/sessions";
import { checkPassword, completeSignIn } from "@/lib/services/cabinet/sign-in";
import { insertCabinetUser, preparePassword } from "@/lib/services/cabinet/users";
import { createMerchant } from "@/lib/services/merchants/create-merchant";
import { payInvoice } from "@/lib/testing/funding";
import { callSigned, getTestDb, getTestSecretBox, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { runCabinetAction } from "../run-action";
import { isSensitiveAction } from "../sensitive-actions";

// The invoice page's actions, run through the one runner as the page runs them: resending an
// invoice's webhook, refunding a payment, and deciding on an under- or overpaid one — with the
// API's codes, the role rules, fresh codes for the two that can send money, and isolation
// between merchants.

const PASSWORD = "correct horse battery";
const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const DEAD_HOOK = "http://127.0.0.1:9/unused";
const origin = { ipAddress: "10.9.8.7", userAgent: "vitest" };

/** A clock the test moves: each fresh code is a new 30-second TOTP step (a step is taken once). */
function clockedDeps() {
  let nowMs = Date.now();
  const deps: ApiDeps = { ...makeTestDeps(), now: () => new Date(nowMs) };
  return {
    deps,
    nextCode: (secret: string) => ((nowMs += 30_000), generate({ secret, epoch: Math.floor(nowMs / 1000) })),
    tick: (ms: number) => void (nowMs += ms),
  };
}

type Clock = ReturnType<typeof clockedDeps>;

interface Member {
  actor: CabinetActor;
  /** The TOTP secret enrolled at the first sign-in (viewers here never enrol). */
  secret: string;
}

/** Signs a user in for the first time: password, enrolment confirmed with a code, session. */
async function enrol(clock: Clock, email: string): Promise<Member> {
  const ticket = await checkPassword(clock.deps, { email, password: PASSWORD }, origin);
  const key = await showEnrolmentKey(clock.deps, ticket.token);
  const confirmed = await confirmEnrolment(clock.deps, { ticket: ticket.token, code: await clock.nextCode(key.secret) }, origin);
  return { actor: await completeSignIn(clock.deps, { ticket: confirmed.ticket.token, code: "" }, origin), secret: key.secret };
}

/** A merchant with its enrolled owner, and its API key to create and pay invoices the way it really happens. */
async function newStore(clock: Clock): Promise<{ merchantId: string; api: TestMerchant; owner: Member }> {
  const email = `owner-${randomUUID()}@example.com`;
  const { merchantId, apiKey } = await createMerchant({ db: getTestDb(), secretBox: getTestSecretBox() }, { name: "Invoice shop", email, password: PASSWORD });
  return { merchantId, api: { merchantId, publicId: apiKey.publicId, secret: apiKey.secret }, owner: await enrol(clock, email) };
}

/** Another user of the store: enrolled (finance, admin), or just signed in (viewer: reads only). */
async function addMember(clock: Clock, merchantId: string, role: CabinetRole): Promise<Member> {
  const email = `${role}-${randomUUID()}@example.com`;
  const user = await insertCabinetUser(getTestDb(), { merchantId, email, passwordHash: await preparePassword(PASSWORD), role }, new Date());
  if (role === "viewer") return { actor: await openSession(getTestDb(), user, origin, clock.deps.now()), secret: "" };
  return enrol(clock, email);
}

function act(clock: Clock, member: Member, name: string, input: unknown, code?: string) {
  return runCabinetAction({ deps: clock.deps, actor: member.actor, origin }, name, input, code);
}

/** Runs a sensitive action with a fresh code of the member's authenticator. */
async function actWithCode(clock: Clock, member: Member, name: string, input: unknown) {
  return act(clock, member, name, input, await clock.nextCode(member.secret));
}

function refusal(result: Awaited<ReturnType<typeof runCabinetAction>>): string {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.result)}`);
  return result.code;
}

function success<T = Record<string, any>>(result: Awaited<ReturnType<typeof runCabinetAction>>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  return result.result as T;
}

async function auditOf(merchantId: string, action: string) {
  const events = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId, action }, orderBy: { createdAt: "asc" } });
  return events.map((event) => ({ outcome: event.outcome, userId: event.userId, detail: event.detail as Record<string, unknown> }));
}

const refundsOf = (invoiceId: string) => getTestDb().payout.findMany({ where: { invoiceId, kind: "refund" }, orderBy: { createdAt: "asc" } });
const deliveriesOf = (invoiceId: string) => getTestDb().webhookDelivery.findMany({ where: { objectId: invoiceId }, orderBy: { createdAt: "asc" } });

/** An invoice of 50 USD in USDT on tron, paid `factor` times its amount, its term over. */
async function endedPayment(merchant: TestMerchant, factor: number) {
  const invoice = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
  const paid = (Number(invoice.payer_amount) * factor).toFixed(6);
  await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: paid }, merchant);
  await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
  await callSigned("/v1/sandbox/expire", { uuid: invoice.uuid }, merchant);
  return (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant)).body.result;
}

describe("refunds from the invoice page", () => {
  it("refunds part of a paid invoice in the coin received, names the user, audits it, and never goes over what was paid", async () => {
    const clock = clockedDeps();
    const store = await newStore(clock);
    const paid = await payInvoice(store.api, "100.00");
    await payInvoice(store.api, "100.00"); // room in the balance for the refunds' fees
    const finance = await addMember(clock, store.merchantId, "finance");

    // A refund sends money to any address: sensitive, so without a fresh code nothing is written.
    expect(isSensitiveAction("refund.create")).toBe(true);
    expect(refusal(await act(clock, finance, "refund.create", { uuid: paid.uuid, address: TRON_ADDRESS, amount: "30" }))).toBe("cabinet.code_required");
    expect(await refundsOf(paid.uuid)).toHaveLength(0);
    const refund = success(await actWithCode(clock, finance, "refund.create", { uuid: paid.uuid, address: TRON_ADDRESS, amount: "30" }));
    expect(refund).toMatchObject({ payment_uuid: paid.uuid, order_id: paid.order_id, amount: "30", currency: "USDT", network: "tron", address: TRON_ADDRESS, status: "process", is_final: false });
    const [stored] = await refundsOf(paid.uuid);
    expect(stored).toMatchObject({ id: refund.uuid, createdBy: `user:${finance.actor.userId}`, approvedBy: `user:${finance.actor.userId}`, status: "approved" });

    // The same (payment, address, amount) is the same refund (spec: idempotency by the triple).
    expect(success(await actWithCode(clock, finance, "refund.create", { uuid: paid.uuid, address: TRON_ADDRESS, amount: "30.000" })).uuid).toBe(refund.uuid);

    // Over what is left: the API's code, and nothing written.
    const decimals = 6;
    const left = parseAmount(paid.payer_amount, decimals)! - 30_000_000n;
    expect(refusal(await actWithCode(clock, finance, "refund.create", { uuid: paid.uuid, amount: formatAmount(left + 1n, decimals) }))).toBe("refund.exceeds_refundable");
    expect(refusal(await actWithCode(clock, finance, "refund.create", { uuid: paid.uuid, amount: "-1" }))).toBe("refund.bad_amount");
    expect(refusal(await actWithCode(clock, finance, "refund.create", { uuid: paid.uuid, address: "nope" }))).toBe("payout.bad_address");
    expect(refusal(await actWithCode(clock, finance, "refund.create", { uuid: "not-a-uuid" }))).toBe("payment.bad_uuid");
    expect(await refundsOf(paid.uuid)).toHaveLength(1);

    // Without an amount or an address: everything left, to the payer.
    clock.tick(1000); // the refunds list in creation order
    const rest = success(await actWithCode(clock, store.owner, "refund.create", { uuid: paid.uuid }));
    expect(rest).toMatchObject({ amount: formatAmount(left, decimals), address: paid.payer_address });
    expect(refusal(await actWithCode(clock, store.owner, "refund.create", { uuid: paid.uuid, amount: "1" }))).toBe("refund.nothing_to_refund");

    // The invoice page shows them, and the refund status the API reports.
    const detail = await loadInvoiceDetail(clock.deps, store.merchantId, paid.uuid);
    expect(detail.refundStatus).toBe("full");
    expect(detail.refunds.map((entry) => [entry.uuid, entry.amount])).toEqual([
      [refund.uuid, "30"],
      [rest.uuid, formatAmount(left, decimals)],
    ]);
    expect(detail.timeline.filter((event) => event.kind === "refund_created")).toHaveLength(2);

    const audit = await auditOf(store.merchantId, "refund.created");
    // The refusal without a code is in the log too.
    expect(audit.filter((event) => event.outcome === "refused").map((event) => [event.userId, event.detail.reason])).toEqual([[finance.actor.userId, "cabinet.code_required"]]);
    expect(audit.filter((event) => event.outcome === "success").map((event) => [event.userId, event.detail.refund])).toEqual([
      [finance.actor.userId, refund.uuid],
      [finance.actor.userId, refund.uuid],
      [store.owner.actor.userId, rest.uuid],
    ]);
  });

  it("refuses an invoice that received nothing, viewers, and another merchant's users, who change nothing", async () => {
    const clock = clockedDeps();
    const store = await newStore(clock);
    const paid = await payInvoice(store.api, "100.00");
    const open = (await callSigned("/v1/payment", { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron" }, store.api)).body.result;
    expect(refusal(await actWithCode(clock, store.owner, "refund.create", { uuid: open.uuid }))).toBe("refund.nothing_to_refund");

    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "refund.create", { uuid: paid.uuid, amount: "1" }))).toBe("cabinet.forbidden");
    expect((await auditOf(store.merchantId, "refund.created")).map((event) => [event.outcome, event.userId])).toEqual([["refused", viewer.actor.userId]]);

    const other = await newStore(clock);
    await payInvoice(other.api, "100.00"); // the other store could pay for a refund: only the lookup stops it
    expect(refusal(await actWithCode(clock, other.owner, "refund.create", { uuid: paid.uuid, amount: "1", address: TRON_ADDRESS }))).toBe("payment.not_found");
    expect(refusal(await actWithCode(clock, other.owner, "refund.create", { order_id: paid.order_id, amount: "1", address: TRON_ADDRESS }))).toBe("payment.not_found");
    expect(await refundsOf(paid.uuid)).toHaveLength(0);
    await expect(loadInvoiceDetail(clock.deps, other.merchantId, paid.uuid)).rejects.toMatchObject({ code: "cabinet.not_found" });
  });
});

describe("resending an invoice's webhook", () => {
  it("records the final status's event again as new deliveries, for the roles that handle payments", async () => {
    const clock = clockedDeps();
    const store = await newStore(clock);
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, store.api)).status).toBe(201);
    const paid = await payInvoice(store.api, "20.00");
    const before = await deliveriesOf(paid.uuid);
    expect(before.map((delivery) => delivery.eventType)).toEqual(["invoice.paid"]);
    const finance = await addMember(clock, store.merchantId, "finance");

    expect(isSensitiveAction("invoice.resend_webhook")).toBe(false);
    const resent = success(await act(clock, finance, "invoice.resend_webhook", { uuid: paid.uuid }));
    expect(resent).toMatchObject({ uuid: paid.uuid, event_type: "invoice.paid" });
    expect(resent.deliveries).toHaveLength(1);
    const after = await deliveriesOf(paid.uuid);
    expect(after.map((delivery) => [delivery.eventType, delivery.url, delivery.status])).toEqual([
      ["invoice.paid", DEAD_HOOK, before[0].status],
      ["invoice.paid", DEAD_HOOK, "pending"],
    ]);
    expect(after[1].id).toBe(resent.deliveries[0]);
    // The same bytes a receiver deduplicates on (uuid + status).
    expect(JSON.parse(after[1].body)).toMatchObject({ uuid: paid.uuid, status: "paid" });

    // The invoice page lists the new delivery.
    const detail = await loadInvoiceDetail(clock.deps, store.merchantId, paid.uuid);
    expect(detail.deliveries.map((delivery) => delivery.id)).toEqual(after.map((delivery) => delivery.id));

    const audit = await auditOf(store.merchantId, "webhook.resent");
    expect(audit).toEqual([{ outcome: "success", userId: finance.actor.userId, detail: { payment: paid.uuid, event_type: "invoice.paid", deliveries: 1 } }]);
  });

  it("answers the API's codes: no event before the invoice is final, no endpoint, a malformed uuid", async () => {
    const clock = clockedDeps();
    const store = await newStore(clock);
    const paid = await payInvoice(store.api, "20.00");
    expect(refusal(await act(clock, store.owner, "invoice.resend_webhook", { uuid: paid.uuid }))).toBe("webhook.no_endpoint");
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, store.api)).status).toBe(201);
    const open = (await callSigned("/v1/payment", { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron" }, store.api)).body.result;
    expect(refusal(await act(clock, store.owner, "invoice.resend_webhook", { uuid: open.uuid }))).toBe("webhook.no_event");
    expect(refusal(await act(clock, store.owner, "invoice.resend_webhook", { uuid: "12345" }))).toBe("payment.bad_uuid");
    expect(refusal(await act(clock, store.owner, "invoice.resend_webhook", { uuid: randomUUID() }))).toBe("payment.not_found");
    expect(await deliveriesOf(open.uuid)).toHaveLength(0);
  });

  it("refuses viewers, and another merchant's users find nothing and send nothing", async () => {
    const clock = clockedDeps();
    const store = await newStore(clock);
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, store.api)).status).toBe(201);
    const paid = await payInvoice(store.api, "20.00");
    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "invoice.resend_webhook", { uuid: paid.uuid }))).toBe("cabinet.forbidden");

    const other = await newStore(clock);
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, other.api)).status).toBe(201);
    expect(refusal(await act(clock, other.owner, "invoice.resend_webhook", { uuid: paid.uuid }))).toBe("payment.not_found");
    expect(await deliveriesOf(paid.uuid)).toHaveLength(1);
    expect(await getTestDb().webhookDelivery.count({ where: { merchantId: other.merchantId } })).toBe(0);
  });
});

describe("deciding on an under- or overpaid invoice", () => {
  it("accepts an underpayment as paid, once, with a fresh code; another merchant and viewers cannot decide", async () => {
    const clock = clockedDeps();
    const store = await newStore(clock);
    const under = await endedPayment(store.api, 0.5);
    expect(under.payment_status).toBe("wrong_amount");

    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "invoice.resolve", { uuid: under.uuid, action: "accept" }))).toBe("cabinet.forbidden");
    const other = await newStore(clock);
    expect(refusal(await actWithCode(clock, other.owner, "invoice.resolve", { uuid: under.uuid, action: "accept" }))).toBe("payment.not_found");
    expect((await getTestDb().invoice.findUniqueOrThrow({ where: { id: under.uuid } })).resolution).toBeNull();

    // The input is checked first; then, as the decision may send money, a fresh code is asked.
    expect(isSensitiveAction("invoice.resolve")).toBe(true);
    expect(refusal(await act(clock, store.owner, "invoice.resolve", { uuid: under.uuid, action: "maybe" }))).toBe("refund.bad_request");
    expect(refusal(await act(clock, store.owner, "invoice.resolve", { uuid: under.uuid, action: "accept" }))).toBe("cabinet.code_required");
    expect(await getTestDb().invoice.findUniqueOrThrow({ where: { id: under.uuid } })).toMatchObject({ status: "wrong_amount", resolution: null });
    const accepted = success(await actWithCode(clock, store.owner, "invoice.resolve", { uuid: under.uuid, action: "accept" }));
    expect(accepted).toEqual({ uuid: under.uuid, payment_status: "paid", resolution: "accepted", refund: null });
    expect(refusal(await actWithCode(clock, store.owner, "invoice.resolve", { uuid: under.uuid, action: "refund" }))).toBe("payment.not_resolvable");

    expect(await auditOf(store.merchantId, "payment.resolved")).toEqual([
      { outcome: "refused", userId: viewer.actor.userId, detail: { reason: "cabinet.forbidden", role: "viewer" } },
      { outcome: "refused", userId: store.owner.actor.userId, detail: { reason: "cabinet.code_required" } },
      { outcome: "success", userId: store.owner.actor.userId, detail: { payment: under.uuid, resolution: "accepted", refund: null, amount: null } },
    ]);
    expect(await auditOf(other.merchantId, "payment.resolved")).toEqual([]);
  });

  it("refunds an overpayment's excess and never more, only with a fresh code, with the user as the refund's creator", async () => {
    const clock = clockedDeps();
    const store = await newStore(clock);
    await payInvoice(store.api, "100.00"); // room for the refund's fee
    const finance = await addMember(clock, store.merchantId, "finance");
    const over = await endedPayment(store.api, 1.5);
    expect(over.payment_status).toBe("paid_over");
    const excess = parseAmount(over.amount_paid, 6)! - parseAmount(over.payer_amount, 6)!;

    expect(refusal(await act(clock, finance, "invoice.resolve", { uuid: over.uuid, action: "refund", address: TRON_ADDRESS }))).toBe("cabinet.code_required");
    expect(await refundsOf(over.uuid)).toHaveLength(0);
    expect((await getTestDb().invoice.findUniqueOrThrow({ where: { id: over.uuid } })).resolution).toBeNull();
    expect(refusal(await actWithCode(clock, finance, "invoice.resolve", { uuid: over.uuid, action: "refund", amount: formatAmount(excess + 1n, 6) }))).toBe("refund.exceeds_excess");
    const resolved = success(await actWithCode(clock, finance, "invoice.resolve", { uuid: over.uuid, action: "refund", address: TRON_ADDRESS }));
    expect(resolved).toMatchObject({ uuid: over.uuid, payment_status: "paid_over", resolution: "refunded", refund: { amount: formatAmount(excess, 6), address: TRON_ADDRESS } });
    const [refund] = await refundsOf(over.uuid);
    expect(refund.createdBy).toBe(`user:${finance.actor.userId}`);

    expect(await auditOf(store.merchantId, "payment.resolved")).toEqual([
      { outcome: "refused", userId: finance.actor.userId, detail: { reason: "cabinet.code_required" } },
      { outcome: "success", userId: finance.actor.userId, detail: { payment: over.uuid, resolution: "refunded", refund: refund.id, amount: formatAmount(excess, 6) } },
    ]);
  });
});
