import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { describe, expect, it } from "vitest";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { fundMerchant } from "@/lib/testing/funding";
import { callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { sendAllPayouts } from "@/lib/jobs/handlers/send-payouts";

// Payments that ended underpaid or overpaid: settled once by /v1/payment/resolve (accept or
// refund), or by themselves with autorefund.

/** An invoice of 50 USD in USDT on tron, paid `factor` times its amount, its term over. */
async function endedPayment(merchant: TestMerchant, factor: number) {
  const invoice = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
  const paid = (Number(invoice.payer_amount) * factor).toFixed(6);
  await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: paid }, merchant);
  await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
  await callSigned("/v1/sandbox/expire", { uuid: invoice.uuid }, merchant);
  return { ...(await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant)).body.result, paid };
}

describe("resolving a payment", () => {
  it("accepts an underpayment as paid, once, and announces invoice.paid", async () => {
    const merchant = await makeMerchant();
    await callSigned("/v1/webhooks", { url: "http://127.0.0.1:9/hook" }, merchant);
    const payment = await endedPayment(merchant, 0.5);
    expect(payment.payment_status).toBe("wrong_amount");
    const accepted = await callSigned("/v1/payment/resolve", { uuid: payment.uuid, action: "accept" }, merchant);
    expect(accepted.body.result).toMatchObject({ payment: { uuid: payment.uuid, payment_status: "paid", is_final: true, resolution: "accepted" }, refund: null });
    const again = await callSigned("/v1/payment/resolve", { uuid: payment.uuid, action: "refund" }, merchant);
    expect([again.status, again.body.error.code]).toEqual([409, "payment.not_resolvable"]);
    const events = await getTestDb().webhookDelivery.findMany({ where: { objectId: payment.uuid }, orderBy: { createdAt: "asc" } });
    expect(events.map((event) => event.eventType)).toEqual(["invoice.wrong_amount", "invoice.paid"]);
  });

  it("refunds everything an underpaid payment received, or the excess of an overpaid one and never more", async () => {
    const merchant = await makeMerchant();
    await fundMerchant(merchant, "100.00"); // room for the refunds' fees
    const under = await endedPayment(merchant, 0.5);
    const refunded = (await callSigned("/v1/payment/resolve", { uuid: under.uuid, action: "refund" }, merchant)).body.result;
    expect(refunded.payment.resolution).toBe("refunded");
    expect(refunded.refund).toMatchObject({ amount: under.paid.replace(/\.?0+$/, ""), address: under.payer_address, status: "process" });

    const over = await endedPayment(merchant, 1.5);
    expect(over.payment_status).toBe("paid_over");
    const excessMinor = parseAmount(over.amount_paid, 6)! - parseAmount(over.payer_amount, 6)!;
    const tooMuch = await callSigned("/v1/payment/resolve", { uuid: over.uuid, action: "refund", amount: formatAmount(excessMinor + 1_000_000n, 6) }, merchant);
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([400, "refund.exceeds_excess"]);
    const excessRefund = (await callSigned("/v1/payment/resolve", { uuid: over.uuid, action: "refund" }, merchant)).body.result;
    expect(parseAmount(excessRefund.refund.amount, 6)).toBe(excessMinor);
    expect(excessRefund.payment).toMatchObject({ payment_status: "paid_over", resolution: "refunded" });

    const paid = await endedPayment(merchant, 1);
    expect((await callSigned("/v1/payment/resolve", { uuid: paid.uuid, action: "accept" }, merchant)).body.error.code).toBe("payment.not_resolvable");
    expect((await callSigned("/v1/payment/resolve", { uuid: paid.uuid, action: "maybe" }, merchant)).body.error.code).toBe("refund.bad_request");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});

describe("autorefund", () => {
  it("refunds payments that end underpaid or overpaid after it is switched on, by itself and once", async () => {
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    await fundMerchant(merchant, "100.00");
    const before = await endedPayment(merchant, 0.5);
    expect((await callSigned("/v1/payment/autorefund/get", {}, merchant)).body.result).toEqual({ underpaid: false, overpaid: false });
    expect((await callSigned("/v1/payment/autorefund/set", { underpaid: true, overpaid: true }, merchant)).body.result).toEqual({ underpaid: true, overpaid: true });
    // Late money to a payment that ended before the switch does not make it one to refund.
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: before.address, amount: "0.5" }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
    const under = await endedPayment(merchant, 0.4);
    const over = await endedPayment(merchant, 1.2);
    await sendAllPayouts(deps);
    await sendAllPayouts(deps);
    const refundsOf = (uuid: string) => getTestDb().payout.findMany({ where: { invoiceId: uuid } });
    expect(await refundsOf(before.uuid)).toHaveLength(0);
    const [underRefund] = await refundsOf(under.uuid);
    expect(underRefund).toMatchObject({ kind: "refund", address: under.payer_address, createdBy: "autorefund" });
    expect(BigInt(underRefund.requestedAmount)).toBe(parseAmount(under.paid, 6));
    const [overRefund] = await refundsOf(over.uuid);
    expect(BigInt(overRefund.requestedAmount)).toBe(parseAmount(over.amount_paid, 6)! - parseAmount(over.payer_amount, 6)!);
    expect((await refundsOf(under.uuid)).length + (await refundsOf(over.uuid)).length).toBe(2);
    expect((await callSigned("/v1/payment/info", { uuid: under.uuid }, merchant)).body.result.refund_status).toBe("full");
    expect((await callSigned("/v1/payment/autorefund/set", { underpaid: false }, merchant)).body.result).toEqual({ underpaid: false, overpaid: true });
  });
});
