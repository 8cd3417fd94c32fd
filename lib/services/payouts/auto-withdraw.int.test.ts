import { formatAmount } from "@/lib/domain/money/amount";
import { describe, expect, it } from "vitest";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { matureDueLots } from "@/lib/jobs/handlers/mature-lots";
import { payInvoice } from "@/lib/testing/funding";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { blockAddress, unblockAddress } from "@/lib/services/compliance/screening";
import { sendAllPayouts } from "@/lib/jobs/handlers/send-payouts";

// Auto-withdraw on the tron sandbox chain: net deposits in a configured asset go out once they
// mature, once, screened; amounts below the threshold stay on the balance.

const ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

describe("auto-withdraw rules", () => {
  it("lists, sets (one rule per asset) and deletes rules, with min in asset units and min_minor out", async () => {
    const merchant = await makeMerchant();
    expect((await callSigned("/v1/auto-withdraw/list", {}, merchant)).body.result).toEqual({ rules: [] });
    const set = await callSigned("/v1/auto-withdraw/set", { currency: "usdt", network: "TRON", address: ADDRESS, min: "12.5" }, merchant);
    expect(set.body.result).toEqual({ currency: "USDT", network: "tron", address: ADDRESS, min_minor: "12500000" });
    await callSigned("/v1/auto-withdraw/set", { currency: "USDT", network: "tron", address: ADDRESS }, merchant);
    expect((await callSigned("/v1/auto-withdraw/list", {}, merchant)).body.result.rules).toEqual([{ currency: "USDT", network: "tron", address: ADDRESS, min_minor: "0" }]);
    expect((await callSigned("/v1/auto-withdraw/delete", { currency: "USDT" }, merchant)).body.result).toEqual({ deleted: true });
    expect((await callSigned("/v1/auto-withdraw/list", {}, merchant)).body.result.rules).toEqual([]);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ currency: "XYZ", network: "tron", address: ADDRESS }, "autowithdraw.unknown_currency"],
    [{ currency: "BTC", network: "tron", address: ADDRESS }, "autowithdraw.unknown_currency"],
    [{ currency: "USDT", network: "tron", address: ADDRESS, min: "-1" }, "autowithdraw.bad_min"],
    [{ currency: "USDT", network: "tron", address: ADDRESS, min: "0.0000001" }, "autowithdraw.bad_min"],
    [{ currency: "USDT", network: "tron" }, "autowithdraw.missing"],
    [{ currency: "USDT", network: "tron", address: "nope" }, "payout.bad_address"],
    [{ currency: "USDT", network: "tron", address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94" }, "payout.address_network_mismatch"],
  ])("refuses %j with %s", async (body, code) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/auto-withdraw/set", body, merchant);
    expect([response.status, response.body.error.code]).toEqual([400, code]);
  });
});

describe("auto-withdrawal of matured credits", () => {
  it("pays out the net amount of each credit above the threshold once; a smaller one stays on the balance", async () => {
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    await callSigned("/v1/auto-withdraw/set", { currency: "USDT", network: "tron", address: ADDRESS, min: "30" }, merchant);
    const large = await payInvoice(merchant, "60.00");
    const small = await payInvoice(merchant, "20.00");
    await sendAllPayouts(deps);
    await sendAllPayouts(deps);
    const payouts = await getTestDb().payout.findMany({ where: { merchantId: merchant.merchantId } });
    expect(payouts).toHaveLength(1);
    const withdrawal = await getTestDb().autoWithdrawal.findFirstOrThrow({ where: { merchantId: merchant.merchantId } });
    expect(payouts[0]).toMatchObject({ orderId: `autowithdraw:${withdrawal.lotId}`, address: ADDRESS, status: "sent", isSubtract: false });
    // The net amount of the large payment: what it added to the balance, the fee taken from it.
    expect(payouts[0].debitMinor.toFixed()).toBe(withdrawal.amountMinor.toFixed());
    const balance = (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant)).body.result.balances[0];
    const smallNet = Number(withdrawal.amountMinor.toFixed()) / 1e6;
    expect(Number(balance.available)).toBeLessThan(smallNet);
    expect(Number(balance.available)).toBeGreaterThan(Number(small.payer_amount) * 0.9);
    expect(large.uuid).not.toBe(small.uuid);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant); // tron min_confirmations
    await sendAllPayouts(deps);
    expect((await getTestDb().payout.findUniqueOrThrow({ where: { id: payouts[0].id } })).status).toBe("confirmed");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("waits for the maturity hold, and leaves the money on the balance when screening blocks the address", async () => {
    const deps = makeTestDeps({}, { GATEWAY_MATURITY_HOLD_SECONDS: "3600" });
    const merchant = await makeMerchant();
    await callSigned("/v1/auto-withdraw/set", { currency: "USDT", network: "tron", address: ADDRESS }, merchant, { deps });
    const invoice = (await callSigned("/v1/payment", { amount: "40.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant, { deps })).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant, { deps });
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant, { deps });
    await sendAllPayouts(deps);
    expect(await getTestDb().autoWithdrawal.count({ where: { merchantId: merchant.merchantId } })).toBe(0);

    await blockAddress(getTestDb(), { address: ADDRESS, network: "tron", reason: "test" });
    try {
      // This merchant's hold ends (other tests' lots keep theirs).
      await getTestDb().maturityLot.updateMany({ where: { merchantId: merchant.merchantId }, data: { maturesAt: new Date(Date.now() - 1000) } });
      await matureDueLots(getTestDb(), new Date());
      await sendAllPayouts(deps);
      const withdrawal = await getTestDb().autoWithdrawal.findFirstOrThrow({ where: { merchantId: merchant.merchantId } });
      expect(withdrawal).toMatchObject({ status: "blocked", payoutId: null });
      expect(withdrawal.reason).toMatch(/compliance.blocked/);
      expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
      const balance = (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant, { deps })).body.result.balances[0];
      expect(balance.available).toBe(formatAmount(BigInt(withdrawal.amountMinor.toFixed()), 6));
    } finally {
      await unblockAddress(getTestDb(), { address: ADDRESS, network: "tron" });
    }
  });
});
