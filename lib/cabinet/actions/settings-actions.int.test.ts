import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { searchWebhookDeliveries } from "@/lib/services/webhooks/search-deliveries";
import { act, actWithCode, addMember, auditOf, movingClock, newStore, refusal, success, TRON_ADDRESS } from "@/lib/testing/cabinet";
import { fundMerchant, payInvoice } from "@/lib/testing/funding";
import { getTestDb, makeTestDeps } from "@/lib/testing/harness";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { SETTINGS_ACTIONS } from "./settings-actions";

// The settings and webhooks pages' actions through the cabinet's one runner: the API's codes,
// fresh codes for the sensitive ones, the role rules, and isolation between stores.

const OTHER_TRON_ADDRESS = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver() {
  const started = await startWebhookReceiver(() => 200);
  receivers.push(started);
  return started;
}

const merchantRow = (merchantId: string) => getTestDb().merchant.findUniqueOrThrow({ where: { id: merchantId } });

describe("store settings in the cabinet", () => {
  it("sets accepted currencies, fees and autorefund with the API's services and codes", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Settings shop");

    expect(success(await act(clock, store.owner, "settings.set_accepted", { accepted: [{ currency: "usdt", network: "TRON" }, { currency: "BTC", network: "bitcoin" }] }))).toEqual({
      accepted: [
        { currency: "BTC", network: "bitcoin" },
        { currency: "USDT", network: "tron" },
      ],
    });
    expect(refusal(await act(clock, store.owner, "settings.set_accepted", { accepted: [{ currency: "EUR", network: "tron" }] }))).toBe("accepted.unknown_currency");
    expect(refusal(await act(clock, store.owner, "settings.set_accepted", { accepted: [{ currency: "BTC", network: "tron" }] }))).toBe("accepted.no_network");
    expect(refusal(await act(clock, store.owner, "settings.set_accepted", { accepted: [{ currency: "BTC", network: "" }] }))).toBe("accepted.no_network");
    // A refusal changes nothing; an empty set accepts everything again.
    expect(await getTestDb().acceptedMethod.count({ where: { merchantId: store.merchantId } })).toBe(2);
    expect(success(await act(clock, store.owner, "settings.set_accepted", { accepted: [] }))).toEqual({ accepted: [] });

    expect(success(await act(clock, store.owner, "settings.set_payout_fee", { is_subtract: true }))).toEqual({ is_subtract: true });
    expect((await merchantRow(store.merchantId)).payoutFeeOnTop).toBe(true);
    expect(refusal(await act(clock, store.owner, "settings.set_payout_fee", { is_subtract: "yes" }))).toBe("payout.bad_request");

    expect(success(await act(clock, store.owner, "settings.set_refund_fee", { payer: "customer" }))).toEqual({ payer: "customer" });
    expect(refusal(await act(clock, store.owner, "settings.set_refund_fee", { payer: "nobody" }))).toBe("refund.bad_request");
    expect((await merchantRow(store.merchantId)).refundFeePayer).toBe("customer");

    expect(success(await act(clock, store.owner, "settings.set_autorefund", { underpaid: true, overpaid: false }))).toEqual({ underpaid: true, overpaid: false });
    expect(refusal(await act(clock, store.owner, "settings.set_autorefund", { underpaid: "on" }))).toBe("refund.bad_request");

    const audit = await auditOf(store.merchantId, "settings.changed");
    expect(audit.map((event) => `${event.detail.setting}:${event.outcome}`)).toEqual(["accepted:success", "accepted:success", "payout_fee:success", "refund_fee:success", "autorefund:success"]);
  });

  it("keeps auto-withdraw rules and split rules; another store can delete neither", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Settings shop");
    const other = await newStore(clock, "Settings shop");

    // Rules that send the store's money on by themselves ask for a fresh code; without one, nothing is kept.
    expect(refusal(await act(clock, store.owner, "settings.set_auto_withdraw", { currency: "USDT", network: "tron", address: TRON_ADDRESS, min: "25.5" }))).toBe("cabinet.code_required");
    expect(refusal(await act(clock, store.owner, "settings.create_split_rule", { percent: 12.5, address: OTHER_TRON_ADDRESS, network: "tron" }))).toBe("cabinet.code_required");
    expect(refusal(await act(clock, store.owner, "settings.set_split_config", { refund_hold_hours: 0 }))).toBe("cabinet.code_required");
    expect(await getTestDb().autoWithdrawRule.count({ where: { merchantId: store.merchantId } })).toBe(0);
    expect(await getTestDb().splitRule.count({ where: { merchantId: store.merchantId } })).toBe(0);
    const rule = success(await actWithCode(clock, store.owner, "settings.set_auto_withdraw", { currency: "USDT", network: "tron", address: TRON_ADDRESS, min: "25.5" }));
    expect(rule).toEqual({ currency: "USDT", network: "tron", address: TRON_ADDRESS, min_minor: "25500000" });
    expect(refusal(await actWithCode(clock, store.owner, "settings.set_auto_withdraw", { currency: "USDT", network: "tron", address: TRON_ADDRESS, min: "0.0000001" }))).toBe("autowithdraw.bad_min");
    expect(refusal(await actWithCode(clock, store.owner, "settings.set_auto_withdraw", { currency: "USDT", network: "tron", address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94" }))).toBe(
      "payout.address_network_mismatch",
    );
    expect(refusal(await actWithCode(clock, store.owner, "settings.set_auto_withdraw", { currency: "DOGE", network: "tron", address: TRON_ADDRESS }))).toBe("autowithdraw.unknown_currency");

    // Another store's owner deletes "the same" rule: not found, and the rule stays.
    expect(refusal(await act(clock, other.owner, "settings.delete_auto_withdraw", { currency: "USDT", network: "tron" }))).toBe("cabinet.not_found");
    expect(await getTestDb().autoWithdrawRule.count({ where: { merchantId: store.merchantId } })).toBe(1);

    const split = success(await actWithCode(clock, store.owner, "settings.create_split_rule", { percent: 12.5, address: OTHER_TRON_ADDRESS, network: "tron", note: "partner" }));
    expect(split).toMatchObject({ percent: 12.5, active: true, address: OTHER_TRON_ADDRESS, network: "tron", note: "partner", reversible: false });
    const internal = success(await actWithCode(clock, store.owner, "settings.create_split_rule", { percent: 5, merchant_id: other.merchantId }));
    expect(internal).toMatchObject({ merchant_id: other.merchantId, reversible: true });
    expect(refusal(await actWithCode(clock, store.owner, "settings.create_split_rule", { percent: 90, merchant_id: other.merchantId }))).toBe("split.exceeds_100");
    expect(refusal(await actWithCode(clock, store.owner, "settings.create_split_rule", { percent: 0.001, merchant_id: other.merchantId }))).toBe("split.bad_percent");
    expect(refusal(await actWithCode(clock, store.owner, "settings.create_split_rule", { percent: 1, merchant_id: store.merchantId }))).toBe("split.self_destination");

    expect(refusal(await act(clock, other.owner, "settings.delete_split_rule", { rule_id: split.rule_id }))).toBe("split.not_found");
    expect(await getTestDb().splitRule.findUniqueOrThrow({ where: { id: split.rule_id } })).toMatchObject({ active: true, deletedAt: null });
    expect(refusal(await act(clock, store.owner, "settings.delete_split_rule", { rule_id: "nope" }))).toBe("split.bad_id");
    expect(success(await act(clock, store.owner, "settings.delete_split_rule", { rule_id: split.rule_id }))).toEqual({ deleted: true });
    expect(await getTestDb().splitRule.findUniqueOrThrow({ where: { id: split.rule_id } })).toMatchObject({ active: false });

    expect(success(await actWithCode(clock, store.owner, "settings.set_split_config", { refund_hold_hours: 48 }))).toEqual({ refund_hold_hours: 48 });
    expect(refusal(await actWithCode(clock, store.owner, "settings.set_split_config", { refund_hold_hours: 2161 }))).toBe("split.bad_hold_hours");
    expect(refusal(await actWithCode(clock, store.owner, "settings.set_split_config", { refund_hold_hours: "48" }))).toBe("split.bad_hold_hours");
    expect((await merchantRow(store.merchantId)).splitRefundHoldHours).toBe(48);

    expect(success(await act(clock, store.owner, "settings.delete_auto_withdraw", { currency: "USDT", network: "tron" }))).toEqual({ deleted: true });
    expect(refusal(await act(clock, store.owner, "settings.delete_auto_withdraw", { currency: "USDT", network: "tron" }))).toBe("cabinet.not_found");
  });

  it("answers split.disabled when the service turns splits off", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Settings shop");
    const off = { ...clock, deps: { ...makeTestDeps({}, { GATEWAY_SPLITS: "0" }), now: clock.deps.now } };
    expect(refusal(await actWithCode(off, store.owner, "settings.set_split_config", { refund_hold_hours: 1 }))).toBe("split.disabled");
  });

  it("changes the IP allow-list only with a fresh code; another store cannot remove an entry", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Settings shop");
    const other = await newStore(clock, "Settings shop");

    expect(refusal(await act(clock, store.owner, "allowlist.add", { cidr: "203.0.113.0/24" }))).toBe("cabinet.code_required");
    expect(refusal(await act(clock, store.owner, "allowlist.add", { cidr: "203.0.113.0/24" }, "000000"))).toBe("cabinet.bad_code");
    // A wrong code is recorded as a failed step-up.
    expect(await getTestDb().cabinetAuditEvent.count({ where: { merchantId: store.merchantId, action: "step_up", outcome: "failure" } })).toBe(1);
    expect(await getTestDb().allowlistEntry.count({ where: { merchantId: store.merchantId } })).toBe(0);

    // A range is written from its first address, as the API requires.
    expect(refusal(await actWithCode(clock, store.owner, "allowlist.add", { cidr: "203.0.113.7/24" }))).toBe("apiallow.bad_cidr");
    expect(success(await actWithCode(clock, store.owner, "allowlist.add", { cidr: "203.0.113.0/24" }))).toEqual({ entries: ["203.0.113.0/24"], enabled: false });
    expect(refusal(await actWithCode(clock, store.owner, "allowlist.add", { cidr: "not an address" }))).toBe("apiallow.bad_cidr");
    expect(refusal(await actWithCode(clock, store.owner, "allowlist.add", { cidr: 42 }))).toBe("apiallow.bad_cidr");

    expect(refusal(await act(clock, store.owner, "allowlist.enable", { enabled: true }))).toBe("cabinet.code_required");
    expect(success(await actWithCode(clock, store.owner, "allowlist.enable", { enabled: true }))).toEqual({ entries: ["203.0.113.0/24"], enabled: true });
    expect(refusal(await actWithCode(clock, store.owner, "allowlist.enable", { enabled: "yes" }))).toBe("apiallow.bad_enabled");

    // Another store's owner, with a good code of their own: not found, and nothing changes.
    expect(refusal(await actWithCode(clock, other.owner, "allowlist.remove", { cidr: "203.0.113.0/24" }))).toBe("apiallow.not_found");
    expect(await getTestDb().allowlistEntry.count({ where: { merchantId: store.merchantId } })).toBe(1);
    expect((await merchantRow(store.merchantId)).allowlistEnabled).toBe(true);

    expect(refusal(await act(clock, store.owner, "allowlist.remove", { cidr: "203.0.113.0/24" }))).toBe("cabinet.code_required");
    // Removing the last entry turns the list off (the service's rule).
    expect(success(await actWithCode(clock, store.owner, "allowlist.remove", { cidr: "203.0.113.0/24" }))).toEqual({ entries: [], enabled: false });
    expect(refusal(await actWithCode(clock, store.owner, "allowlist.enable", { enabled: true }))).toBe("apiallow.empty");

    const audit = await auditOf(store.merchantId, "allowlist.changed");
    expect(audit.map((event) => `${event.outcome}:${event.detail.change ?? event.detail.reason}`)).toEqual([
      "refused:cabinet.code_required",
      "success:added",
      "refused:cabinet.code_required",
      "success:enabled",
      "refused:cabinet.code_required",
      "success:removed",
    ]);
  });

  it("registers and removes a personal wallet with a fresh code and transfers to it as a manual payout", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Settings shop");
    await fundMerchant(store.api);
    const finance = await addMember(clock, store.merchantId, "finance");

    const wallet = { currency: "USDT", network: "tron", address: TRON_ADDRESS, label: "cold storage" };
    expect(refusal(await act(clock, store.owner, "personal_wallet.save", wallet))).toBe("cabinet.code_required");
    expect(refusal(await act(clock, store.owner, "personal_wallet.save", wallet, "123456"))).toBe("cabinet.bad_code");
    // Finance staff move money but do not choose where the store's money may go.
    expect(refusal(await actWithCode(clock, finance, "personal_wallet.save", wallet))).toBe("cabinet.forbidden");
    expect(refusal(await actWithCode(clock, store.owner, "personal_wallet.save", { ...wallet, address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94" }))).toBe(
      "payout.address_network_mismatch",
    );
    expect(success(await actWithCode(clock, store.owner, "personal_wallet.save", wallet))).toMatchObject({ currency: "USDT", network: "tron", address: TRON_ADDRESS, label: "cold storage" });

    const transfer = { currency: "USDT", network: "tron", amount: "20", reference: randomUUID() };
    expect(refusal(await act(clock, finance, "personal_wallet.transfer", transfer))).toBe("cabinet.code_required");
    expect(refusal(await actWithCode(clock, finance, "personal_wallet.transfer", { ...transfer, amount: "20.0000001" }))).toBe("payout.bad_amount");
    expect(refusal(await actWithCode(clock, finance, "personal_wallet.transfer", { ...transfer, network: "bsc" }))).toBe("payout.no_destination");
    const payout = success(await actWithCode(clock, finance, "personal_wallet.transfer", transfer));
    expect(payout).toMatchObject({ address: TRON_ADDRESS, amount: "20", currency: "USDT", network: "tron", source: "manual", internal_status: "pending", order_id: `transfer:${transfer.reference}` });
    // The same form submitted twice is the same transfer.
    expect(success(await actWithCode(clock, finance, "personal_wallet.transfer", transfer)).uuid).toBe(payout.uuid);
    expect((await getTestDb().payout.findUniqueOrThrow({ where: { id: payout.uuid } })).createdBy).toBe(`user:${finance.actor.userId}`);

    const other = await newStore(clock, "Settings shop");
    expect(refusal(await actWithCode(clock, other.owner, "personal_wallet.remove", { currency: "USDT", network: "tron" }))).toBe("cabinet.not_found");
    expect(await getTestDb().personalWallet.count({ where: { merchantId: store.merchantId } })).toBe(1);
    expect(refusal(await actWithCode(clock, other.owner, "personal_wallet.transfer", { ...transfer, reference: randomUUID() }))).toBe("payout.no_destination");
    // Removing one changes where the store's money may go: a fresh code too.
    expect(refusal(await act(clock, store.owner, "personal_wallet.remove", { currency: "usdt", network: "TRON" }))).toBe("cabinet.code_required");
    expect(await getTestDb().personalWallet.count({ where: { merchantId: store.merchantId } })).toBe(1);
    expect(success(await actWithCode(clock, store.owner, "personal_wallet.remove", { currency: "usdt", network: "TRON" }))).toEqual({ removed: true });
    expect(await getTestDb().personalWallet.count({ where: { merchantId: store.merchantId } })).toBe(0);

    expect((await auditOf(store.merchantId, "personal_wallet.transfer")).filter((event) => event.outcome === "success")).toHaveLength(2);
    const outcomes = async (action: string) => (await auditOf(store.merchantId, action)).map((event) => `${event.outcome}:${event.detail.change ?? event.detail.reason}`);
    expect(await outcomes("personal_wallet.saved")).toEqual(["refused:cabinet.code_required", "refused:cabinet.forbidden", "success:saved"]);
    expect(await outcomes("personal_wallet.removed")).toEqual(["refused:cabinet.code_required", "success:removed"]);
  });

  it("sets the webhook endpoint and rotates its secret with a fresh code; the URL is vetted by the API's rule", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Settings shop");
    const target = await receiver();

    expect(refusal(await act(clock, store.owner, "webhook.set", { url: target.url }))).toBe("cabinet.code_required");
    expect(refusal(await actWithCode(clock, store.owner, "webhook.set", { url: "http://169.254.169.254/latest" }))).toBe("webhook.bad_url");
    expect(refusal(await actWithCode(clock, store.owner, "webhook.set", { url: "ftp://example.com/hook" }))).toBe("webhook.bad_url");
    expect(refusal(await actWithCode(clock, store.owner, "webhook.set", { url: target.url, overlap_hours: 500 }))).toBe("webhook.bad_overlap");
    expect(refusal(await actWithCode(clock, store.owner, "webhook.rotate_secret", {}))).toBe("webhook.no_endpoint");

    const registered = success(await actWithCode(clock, store.owner, "webhook.set", { url: target.url }));
    expect(registered).toMatchObject({ url: target.url, previous_secret_expires_at: null });
    expect(registered.secret).toMatch(/^whsec_/);

    expect(refusal(await act(clock, store.owner, "webhook.rotate_secret", { overlap_hours: 2 }))).toBe("cabinet.code_required");
    const rotated = success(await actWithCode(clock, store.owner, "webhook.rotate_secret", { overlap_hours: 2 }));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(registered.secret);
    expect(new Date(rotated.previous_secret_expires_at).getTime()).toBe(clock.deps.now().getTime() + 2 * 3600_000);

    // A signed test to the registered endpoint, and unsigned ones to a URL given here.
    expect(success(await act(clock, store.owner, "webhook.test", { family: "payment", status: "paid" }))).toMatchObject({ delivered: true, signed: true, status_code: 200, url: target.url });
    expect(target.received.at(-1)?.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(success(await act(clock, store.owner, "webhook.test", { family: "payout", status: "confirmed", url: target.url }))).toMatchObject({ delivered: true, signed: false, status_code: 200 });
    expect(target.received.at(-1)?.headers["x-webhook-event"]).toBe("payout.confirmed");
    expect(refusal(await act(clock, store.owner, "webhook.test", { family: "wallet" }))).toBe("webhook.no_url");
    expect(refusal(await act(clock, store.owner, "webhook.test", { family: "payment", status: "nope" }))).toBe("webhook.bad_status");
    expect(refusal(await act(clock, store.owner, "webhook.test", { family: "payment", url: "http://10.0.0.1/hook" }))).toBe("webhook.bad_url");

    const changed = await auditOf(store.merchantId, "webhook.changed");
    expect(changed.filter((event) => event.outcome === "success").map((event) => event.detail)).toEqual([{ host: new URL(target.url).host, previous_secret_expires_at: null }]);
    // Never a secret in the audit log.
    const everything = JSON.stringify(await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: store.merchantId } }));
    expect(everything).not.toContain(registered.secret);
    expect(everything).not.toContain(rotated.secret);
    expect((await auditOf(store.merchantId, "webhook.secret_rotated")).map((event) => event.outcome)).toEqual(["refused", "success"]);
  });

  it("lists deliveries with filters and a cursor, and resends a payment event; another store finds nothing", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Settings shop");
    const target = await receiver();
    success(await actWithCode(clock, store.owner, "webhook.set", { url: target.url }));
    const paid = await payInvoice(store.api, "30.00");

    const db = getTestDb();
    const [delivery] = (await searchWebhookDeliveries(db, store.merchantId, { eventType: "invoice.paid" }, { limit: 10 })).items;
    expect(delivery).toMatchObject({ objectId: paid.uuid, eventType: "invoice.paid", target: "endpoint", url: target.url, status: "pending", maxAttempts: 12, resentAs: null });
    // Give up on it, as the dispatcher does after the last attempt, and add a payout event to resend.
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "dead", attempts: 12, lastStatusCode: 500, lastError: "HTTP 500" } });
    const payoutDelivery = randomUUID();
    await db.webhookDelivery.create({
      data: { id: payoutDelivery, merchantId: store.merchantId, eventType: "payout.failed", objectId: randomUUID(), target: "endpoint", url: target.url, body: "{}", status: "dead", nextAttemptAt: new Date() },
    });

    const dead = await searchWebhookDeliveries(db, store.merchantId, { status: "dead" }, { limit: 1 });
    expect(dead.items.map((item) => item.id)).toEqual([payoutDelivery]);
    expect(dead.nextCursor).not.toBeNull();
    const second = await searchWebhookDeliveries(db, store.merchantId, { status: "dead" }, { limit: 1, cursor: dead.nextCursor! });
    expect(second.items.map((item) => [item.id, item.nextAttemptAt])).toEqual([[delivery.id, null]]);
    expect(second.nextCursor).toBeNull();
    await expect(searchWebhookDeliveries(db, store.merchantId, {}, { limit: 1, cursor: "bogus" })).rejects.toMatchObject({ code: "cabinet.bad_request" });

    const other = await newStore(clock, "Settings shop");
    expect((await searchWebhookDeliveries(db, other.merchantId, {}, { limit: 10 })).items).toEqual([]);
    expect(refusal(await act(clock, other.owner, "webhook.resend", { delivery_id: delivery.id }))).toBe("cabinet.not_found");
    expect(refusal(await act(clock, store.owner, "webhook.resend", { delivery_id: "not-a-uuid" }))).toBe("cabinet.not_found");
    expect(refusal(await act(clock, store.owner, "webhook.resend", { delivery_id: payoutDelivery }))).toBe("cabinet.bad_request");
    expect(await db.webhookDelivery.count({ where: { merchantId: store.merchantId } })).toBe(2);

    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "webhook.resend", { delivery_id: delivery.id }))).toBe("cabinet.forbidden");
    const finance = await addMember(clock, store.merchantId, "finance");
    const resent = success(await act(clock, finance, "webhook.resend", { delivery_id: delivery.id }));
    expect(resent).toMatchObject({ uuid: paid.uuid, event_type: "invoice.paid", resent_from: delivery.id });
    expect(resent.deliveries).toHaveLength(1);

    // The dead delivery now shows the resend that followed it.
    const after = await searchWebhookDeliveries(db, store.merchantId, { status: "dead", eventType: "invoice.paid" }, { limit: 10 });
    expect(after.items[0].resentAs).toMatchObject({ id: resent.deliveries[0], status: "pending" });
    expect((await searchWebhookDeliveries(db, store.merchantId, { status: "pending" }, { limit: 10 })).items.map((item) => item.id)).toEqual(resent.deliveries);
    expect((await auditOf(store.merchantId, "webhook.resent")).map((event) => `${event.outcome}:${event.detail.delivery ?? event.detail.reason}`)).toEqual([
      "refused:cabinet.forbidden",
      `success:${delivery.id}`,
    ]);
  });

  it("refuses finance staff and viewers every settings change, and viewers money", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Settings shop");
    const finance = await addMember(clock, store.merchantId, "finance");
    const viewer = await addMember(clock, store.merchantId, "viewer");
    for (const [name, entry] of Object.entries(SETTINGS_ACTIONS)) {
      const input = { cidr: "203.0.113.1", enabled: true, url: "http://127.0.0.1:9/hook", is_subtract: true, payer: "merchant", accepted: [], refund_hold_hours: 1, family: "payment" };
      if (entry.permission === "settings") expect(refusal(await act(clock, finance, name, input, "123456")), name).toBe("cabinet.forbidden");
      expect(refusal(await act(clock, viewer, name, input, "123456")), name).toBe("cabinet.forbidden");
    }
    // Nothing changed.
    const merchant = await merchantRow(store.merchantId);
    expect(merchant).toMatchObject({ payoutFeeOnTop: false, refundFeePayer: "merchant", allowlistEnabled: false, splitRefundHoldHours: 72 });
    expect(await getTestDb().allowlistEntry.count({ where: { merchantId: store.merchantId } })).toBe(0);
    expect(await getTestDb().webhookEndpoint.count({ where: { merchantId: store.merchantId } })).toBe(0);
  });
});
