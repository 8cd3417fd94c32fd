import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { loadInvoiceDetail } from "@/lib/services/invoices/load-invoice-detail";
import { act, actWithCode, addMember, auditOf, DEAD_HOOK, endedPayment, movingClock, newStore, refusal, success, TRON_ADDRESS } from "@/lib/testing/cabinet";
import { payInvoice } from "@/lib/testing/funding";
import { callSigned, getTestDb } from "@/lib/testing/harness";
import { isSensitiveAction } from "../sensitive-actions";

// The invoice page's actions, run through the one runner as the page runs them: resending an
// invoice's webhook, refunding a payment, and deciding on an under- or overpaid one — with the
// API's codes, the role rules, fresh codes for the two that can send money, and isolation
// between merchants.

const refundsOf = (invoiceId: string) => getTestDb().payout.findMany({ where: { invoiceId, kind: "refund" }, orderBy: { createdAt: "asc" } });
const deliveriesOf = (invoiceId: string) => getTestDb().webhookDelivery.findMany({ where: { objectId: invoiceId }, orderBy: { createdAt: "asc" } });

describe("refunds from the invoice page", () => {
  it("refunds part of a paid invoice in the coin received, names the user, audits it, and never goes over what was paid", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Invoice shop");
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
    clock.advance(1000); // the refunds list in creation order
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
    const clock = movingClock();
    const store = await newStore(clock, "Invoice shop");
    const paid = await payInvoice(store.api, "100.00");
    const open = (await callSigned("/v1/payment", { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron" }, store.api)).body.result;
    expect(refusal(await actWithCode(clock, store.owner, "refund.create", { uuid: open.uuid }))).toBe("refund.nothing_to_refund");

    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "refund.create", { uuid: paid.uuid, amount: "1" }))).toBe("cabinet.forbidden");
    expect((await auditOf(store.merchantId, "refund.created")).map((event) => [event.outcome, event.userId])).toEqual([["refused", viewer.actor.userId]]);

    const other = await newStore(clock, "Invoice shop");
    await payInvoice(other.api, "100.00"); // the other store could pay for a refund: only the lookup stops it
    expect(refusal(await actWithCode(clock, other.owner, "refund.create", { uuid: paid.uuid, amount: "1", address: TRON_ADDRESS }))).toBe("payment.not_found");
    expect(refusal(await actWithCode(clock, other.owner, "refund.create", { order_id: paid.order_id, amount: "1", address: TRON_ADDRESS }))).toBe("payment.not_found");
    expect(await refundsOf(paid.uuid)).toHaveLength(0);
    await expect(loadInvoiceDetail(clock.deps, other.merchantId, paid.uuid)).rejects.toMatchObject({ code: "cabinet.not_found" });
  });
});

describe("a new invoice made by hand", () => {
  it("creates an invoice with the API's rules and codes, answers its payment page and a QR code, audits it, and is not for viewers", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Invoice shop");
    const finance = await addMember(clock, store.merchantId, "finance");
    expect(isSensitiveAction("invoice.create")).toBe(false);

    const orderId = `phone-${randomUUID().slice(0, 8)}`;
    const made = success(await act(clock, finance, "invoice.create", { amount: "49.90", currency: "EUR", to_currency: "USDT", network: "tron", order_id: orderId, lifetime: 7200 }));
    expect(made).toMatchObject({ order_id: orderId, amount: "49.90", currency: "EUR", payer_currency: "USDT", network: "tron", payment_status: "check" });
    expect(made.url).toContain(`/pay/${made.uuid}`);
    expect(made.url_qr_code).toMatch(/^data:image\/(png|svg\+xml);base64,/);
    // What the API answers for the same invoice.
    const info = (await callSigned("/v1/payment/info", { uuid: made.uuid }, store.api)).body.result;
    expect(info).toMatchObject({ uuid: made.uuid, order_id: orderId, amount: "49.90", address: made.address });
    // The same order id while its invoice lives answers that invoice.
    expect(success(await act(clock, finance, "invoice.create", { amount: "49.90", currency: "EUR", to_currency: "USDT", network: "tron", order_id: orderId })).uuid).toBe(made.uuid);
    // The buyer chooses the coin when none is given.
    expect(success(await act(clock, finance, "invoice.create", { amount: "12", currency: "USD" }))).toMatchObject({ payment_status: "select", is_multi: true });

    expect(refusal(await act(clock, finance, "invoice.create", { amount: "-3", currency: "USD" }))).toBe("payment.bad_amount");
    expect(refusal(await act(clock, finance, "invoice.create", { amount: "3", currency: "XXX" }))).toBe("payment.unknown_currency");
    expect(refusal(await act(clock, finance, "invoice.create", { amount: "3", currency: "USD", to_currency: "USDT", network: "nowhere" }))).toBe("payment.unsupported_network");
    const viewer = await addMember(clock, store.merchantId, "viewer", { enrol: true });
    expect(refusal(await act(clock, viewer, "invoice.create", { amount: "3", currency: "USD" }))).toBe("cabinet.forbidden");

    expect(await auditOf(store.merchantId, "invoice.created")).toContainEqual({ outcome: "success", userId: finance.actor.userId, detail: { payment: made.uuid, order_id: orderId, amount: "49.90", currency: "EUR" } });
  });
});

describe("resending an invoice's webhook", () => {
  it("records the final status's event again as new deliveries, for the roles that handle payments", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Invoice shop");
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
    const clock = movingClock();
    const store = await newStore(clock, "Invoice shop");
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
    const clock = movingClock();
    const store = await newStore(clock, "Invoice shop");
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, store.api)).status).toBe(201);
    const paid = await payInvoice(store.api, "20.00");
    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "invoice.resend_webhook", { uuid: paid.uuid }))).toBe("cabinet.forbidden");

    const other = await newStore(clock, "Invoice shop");
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, other.api)).status).toBe(201);
    expect(refusal(await act(clock, other.owner, "invoice.resend_webhook", { uuid: paid.uuid }))).toBe("payment.not_found");
    expect(await deliveriesOf(paid.uuid)).toHaveLength(1);
    expect(await getTestDb().webhookDelivery.count({ where: { merchantId: other.merchantId } })).toBe(0);
  });
});

describe("deciding on an under- or overpaid invoice", () => {
  it("accepts an underpayment as paid, once, with a fresh code; another merchant and viewers cannot decide", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Invoice shop");
    const under = await endedPayment(store.api, 0.5);
    expect(under.payment_status).toBe("wrong_amount");

    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "invoice.resolve", { uuid: under.uuid, action: "accept" }))).toBe("cabinet.forbidden");
    const other = await newStore(clock, "Invoice shop");
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
    const clock = movingClock();
    const store = await newStore(clock, "Invoice shop");
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
