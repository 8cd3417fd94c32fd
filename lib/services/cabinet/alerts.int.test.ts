import { describe, expect, it } from "vitest";
import { sendCabinetAlerts } from "@/lib/jobs/handlers/send-cabinet-alerts";
import { act, addMember, DEAD_HOOK, endedPayment, movingClock, newStore, refusal, success, TRON_ADDRESS } from "@/lib/testing/cabinet";
import { fundMerchant } from "@/lib/testing/funding";
import { callSigned, getTestDb } from "@/lib/testing/harness";
import { withTransaction } from "@/lib/db/transaction";
import { postJournal } from "@/lib/ledger/post";
import { PLATFORM } from "@/lib/ledger/postings";

// E-mail alerts against the real database: each member chooses their kinds (within their role),
// each alert goes out once per subject however many workers race, and only to those who chose it.

const alertMails = (merchantId: string) =>
  getTestDb().outboundEmail.findMany({ where: { merchantId, subject: { startsWith: "Gateway: " } }, orderBy: [{ createdAt: "asc" }, { recipient: "asc" }] });

describe("cabinet e-mail alerts", () => {
  it("tell the members who chose a kind, once per subject, whatever races; roles bound the choice", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Alert shop");
    await fundMerchant(store.api, "60.00");
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, store.api)).status).toBe(201);
    const finance = await addMember(clock, store.merchantId, "finance");
    const viewer = await addMember(clock, store.merchantId, "viewer", { enrol: true });

    expect(success(await act(clock, finance, "alerts.set", { kind: "payout_approval", is_on: true }))).toEqual({ kinds: ["payout_approval"] });
    expect(success(await act(clock, finance, "alerts.set", { kind: "decision_needed", is_on: true }))).toEqual({ kinds: ["payout_approval", "decision_needed"] });
    expect(refusal(await act(clock, viewer, "alerts.set", { kind: "payout_approval", is_on: true }))).toBe("cabinet.forbidden");
    expect(success(await act(clock, viewer, "alerts.set", { kind: "endpoint_failing", is_on: true }))).toEqual({ kinds: ["endpoint_failing"] });
    expect(refusal(await act(clock, viewer, "alerts.set", { kind: "weather", is_on: true }))).toBe("cabinet.bad_request");

    // A manual payout waiting for approval, and an underpaid payment waiting for a decision.
    const payout = (await callSigned("/v1/payout", { amount: "4", currency: "USDT", network: "tron", address: TRON_ADDRESS, source: "manual", order_id: "alert-payout" }, store.api)).body.result;
    const underpaid = await endedPayment(store.api, 0.5);
    expect(underpaid.payment_status).toBe("wrong_amount");

    // Two workers at once: each alert is sent once.
    await Promise.all([sendCabinetAlerts(clock.deps), sendCabinetAlerts(clock.deps)]);
    await sendCabinetAlerts(clock.deps);
    const mails = await alertMails(store.merchantId);
    expect(mails.map((mail) => [mail.recipient, mail.subject])).toEqual(
      expect.arrayContaining([
        [finance.actor.email, "Gateway: Payout awaiting approval"],
        [finance.actor.email, "Gateway: Decision needed"],
      ]),
    );
    expect(mails).toHaveLength(2);
    expect(mails.find((mail) => mail.subject.endsWith("approval"))!.text).toContain(`/cabinet/payouts/${payout.uuid}`);
    expect(await getTestDb().cabinetAlertSent.count({ where: { merchantId: store.merchantId } })).toBe(2);

    // The endpoint failing for two hours: told to the viewer who chose it, once.
    const delivery = await getTestDb().webhookDelivery.findFirstOrThrow({ where: { merchantId: store.merchantId, target: "endpoint" } });
    await getTestDb().webhookDelivery.update({ where: { id: delivery.id }, data: { status: "pending", attempts: 5, lastStatusCode: 502, createdAt: new Date(Date.now() - 2 * 3_600_000) } });
    await Promise.all([sendCabinetAlerts(clock.deps), sendCabinetAlerts(clock.deps)]);
    const endpointMails = (await alertMails(store.merchantId)).filter((mail) => mail.subject === "Gateway: Webhook endpoint failing");
    expect(endpointMails.map((mail) => mail.recipient)).toEqual([viewer.actor.email]);

    // Turned off: the next subject goes to nobody.
    expect(success(await act(clock, finance, "alerts.set", { kind: "payout_approval", is_on: false }))).toEqual({ kinds: ["decision_needed"] });
    await callSigned("/v1/payout", { amount: "3", currency: "USDT", network: "tron", address: TRON_ADDRESS, source: "manual", order_id: "alert-payout-2" }, store.api);
    await sendCabinetAlerts(clock.deps);
    expect((await alertMails(store.merchantId)).filter((mail) => mail.subject.endsWith("approval"))).toHaveLength(1);

    // A debt: told once, told again only after it was paid back and came back.
    expect(success(await act(clock, viewer, "alerts.set", { kind: "debt", is_on: true }))).toEqual({ kinds: ["endpoint_failing", "debt"] });
    const debt = (step: string, sign: bigint) => ({
      reference: `test:alert-debt:${store.merchantId}:${step}`,
      kind: "test",
      postings: [
        { account: { owner: store.merchantId, asset: "USDT:tron", bucket: "debt" as const }, amount: -2_500_000n * sign },
        { account: { owner: PLATFORM, asset: "USDT:tron", bucket: "chain" as const }, amount: 2_500_000n * sign },
      ],
    });
    const debtMails = async () => (await alertMails(store.merchantId)).filter((mail) => mail.subject === "Gateway: Debt");
    await withTransaction(getTestDb(), (tx) => postJournal(tx, debt("owed", 1n), new Date()));
    await Promise.all([sendCabinetAlerts(clock.deps), sendCabinetAlerts(clock.deps)]);
    expect((await debtMails()).map((mail) => mail.recipient)).toEqual([viewer.actor.email]);
    expect((await debtMails())[0].text).toContain("owes 2.5 USDT on tron");
    await sendCabinetAlerts(clock.deps);
    expect(await debtMails()).toHaveLength(1);
    await withTransaction(getTestDb(), (tx) => postJournal(tx, debt("repaid", -1n), new Date()));
    await sendCabinetAlerts(clock.deps);
    expect(await getTestDb().cabinetAlertSent.count({ where: { merchantId: store.merchantId, kind: "debt" } })).toBe(0);
    await withTransaction(getTestDb(), (tx) => postJournal(tx, debt("owed-again", 1n), new Date()));
    await sendCabinetAlerts(clock.deps);
    expect(await debtMails()).toHaveLength(2);
    await withTransaction(getTestDb(), (tx) => postJournal(tx, debt("repaid-again", -1n), new Date()));

    // Another store's alerts never reach this store's members.
    const other = await newStore(clock, "Other shop");
    await endedPayment(other.api, 0.5);
    await sendCabinetAlerts(clock.deps);
    expect((await alertMails(store.merchantId)).filter((mail) => mail.subject === "Gateway: Decision needed")).toHaveLength(1);
    expect(await alertMails(other.merchantId)).toEqual([]);
  });
});
