import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { withTransaction } from "@/lib/db/transaction";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { blockAddress, unblockAddress } from "@/lib/services/compliance/screening";
import { applyPayoutFact } from "@/lib/services/payouts/apply-payout-fact";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { payInvoice } from "@/lib/testing/funding";
import { callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { releaseDueSplitShares } from "@/lib/jobs/handlers/release-split-shares";
import { matureDueLots } from "@/lib/jobs/handlers/mature-lots";
import { randomBytes } from "node:crypto";
import { createSandboxAdapter } from "@/lib/chains/sandbox/sandbox-chain";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";

// Split rules on the tron sandbox chain (USDT, 6 decimals): shares taken at settlement, held for
// the refund window, released to a partner merchant or sent to an address, shrunk by refunds.

const PARTNER_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const REFUND_ADDRESS = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";

async function balanceOf(merchant: TestMerchant) {
  const found = (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant)).body.result.balances[0];
  const minor = (value: string | undefined) => parseAmount(value ?? "0", 6)!;
  return { available: minor(found?.available), splitHeld: minor(found?.split_held), debt: minor(found?.debt), payoutHeld: minor(found?.payout_held) };
}

async function sharesOf(paymentUuid: string) {
  return getTestDb().splitShare.findMany({ where: { invoiceId: paymentUuid }, orderBy: { createdAt: "asc" } });
}

const percentOf = (base: bigint, bps: number) => (base * BigInt(bps)) / 10_000n;

async function releaseLater(hours: number) {
  const later = new Date(Date.now() + hours * 3_600_000);
  return releaseDueSplitShares(makeTestDeps({ now: () => later }));
}

async function expectCleanLedger() {
  expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
}

describe("split rules", () => {
  it("creates internal and external rules, lists and deletes them", async () => {
    const merchant = await makeMerchant();
    const partner = await makeMerchant();
    const internal = await callSigned("/v1/split/rule", { percent: 12.34, merchant_id: partner.merchantId, note: "reseller" }, merchant);
    expect(internal.status).toBe(200);
    expect(internal.body.result).toEqual({ rule_id: expect.any(String), percent: 12.34 });
    const external = (await callSigned("/v1/split/rule", { percent: 0.01, address: PARTNER_ADDRESS, network: "TRON" }, merchant)).body.result;
    const listed = (await callSigned("/v1/split/rule/list", {}, merchant)).body.result.items;
    expect(listed).toEqual([
      { rule_id: internal.body.result.rule_id, percent: 12.34, active: true, note: "reseller", merchant_id: partner.merchantId, reversible: true },
      { rule_id: external.rule_id, percent: 0.01, active: true, note: "", address: PARTNER_ADDRESS, network: "tron", reversible: false },
    ]);
    expect((await callSigned("/v1/split/rule/delete", { rule_id: external.rule_id }, merchant)).body.result).toEqual({ deleted: true });
    expect((await callSigned("/v1/split/rule/delete", { rule_id: external.rule_id }, merchant)).body.result).toEqual({ deleted: true });
    expect((await callSigned("/v1/split/rule/list", {}, merchant)).body.result.items.map((rule: { rule_id: string }) => rule.rule_id)).toEqual([internal.body.result.rule_id]);
    const all = (await callSigned("/v1/split/rule/list", { include_deleted: true }, merchant)).body.result.items;
    expect(all.find((rule: { rule_id: string }) => rule.rule_id === external.rule_id)).toMatchObject({ active: false });
    // Another merchant's rule does not exist for this one.
    const response = await callSigned("/v1/split/rule/delete", { rule_id: internal.body.result.rule_id }, partner);
    expect([response.status, response.body.error.code]).toEqual([404, "split.not_found"]);
  });

  it.each<[string, Record<string, unknown>, number, string]>([
    ["no recipient", { percent: 10 }, 400, "split.bad_destination"],
    ["both recipients", { percent: 10, address: PARTNER_ADDRESS, network: "tron", merchant_id: "00000000-0000-4000-8000-000000000000" }, 400, "split.bad_destination"],
    ["an address without network", { percent: 10, address: PARTNER_ADDRESS }, 400, "split.network_required"],
    ["an unknown network", { percent: 10, address: PARTNER_ADDRESS, network: "moon" }, 400, "split.network_required"],
    ["a zero percent", { percent: 0, address: PARTNER_ADDRESS, network: "tron" }, 400, "split.bad_percent"],
    ["a percent above 100", { percent: 100.01, address: PARTNER_ADDRESS, network: "tron" }, 400, "split.bad_percent"],
    ["a third decimal", { percent: 12.345, address: PARTNER_ADDRESS, network: "tron" }, 400, "split.bad_percent"],
    ["a percent as a string", { percent: "10", address: PARTNER_ADDRESS, network: "tron" }, 400, "split.bad_percent"],
    ["a merchant_id that is not a UUID", { percent: 10, merchant_id: "acme" }, 400, "split.bad_merchant"],
    ["an unknown merchant", { percent: 10, merchant_id: "00000000-0000-4000-8000-000000000000" }, 400, "split.bad_merchant"],
    ["a malformed address", { percent: 10, address: "nope", network: "tron" }, 400, "payout.bad_address"],
    ["another network's address", { percent: 10, address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", network: "tron" }, 400, "payout.address_network_mismatch"],
    ["a note too long", { percent: 10, address: PARTNER_ADDRESS, network: "tron", note: "n".repeat(256) }, 400, "split.bad_note"],
  ])("refuses %s", async (_name, body, status, code) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/split/rule", body, merchant);
    expect([response.status, response.body.error.code]).toEqual([status, code]);
    expect(await getTestDb().splitRule.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("refuses the merchant itself, an address of this service, a blocked address, a bad rule_id and a sum above 100", async () => {
    const merchant = await makeMerchant();
    const self = await callSigned("/v1/split/rule", { percent: 10, merchant_id: merchant.merchantId }, merchant);
    expect([self.status, self.body.error.code]).toEqual([400, "split.self_destination"]);
    const invoice = (await callSigned("/v1/payment", { amount: "10", currency: "USDT", network: "tron" }, merchant)).body.result;
    const internal = await callSigned("/v1/split/rule", { percent: 10, address: invoice.address, network: "tron" }, merchant);
    expect([internal.status, internal.body.error.code]).toEqual([400, "split.self_destination"]);
    await blockAddress(getTestDb(), { address: REFUND_ADDRESS, network: "tron", reason: "test" });
    try {
      const blocked = await callSigned("/v1/split/rule", { percent: 10, address: REFUND_ADDRESS, network: "tron" }, merchant);
      expect([blocked.status, blocked.body.error.code]).toEqual([403, "compliance.blocked"]);
    } finally {
      await unblockAddress(getTestDb(), { address: REFUND_ADDRESS, network: "tron" });
    }
    const badId = await callSigned("/v1/split/rule/delete", { rule_id: "x" }, merchant);
    expect([badId.status, badId.body.error.code]).toEqual([400, "split.bad_id"]);
    expect((await callSigned("/v1/split/rule", { percent: 60, address: PARTNER_ADDRESS, network: "tron" }, merchant)).status).toBe(200);
    const over = await callSigned("/v1/split/rule", { percent: 40.01, address: PARTNER_ADDRESS, network: "tron" }, merchant);
    expect([over.status, over.body.error.code]).toEqual([400, "split.exceeds_100"]);
    expect((await callSigned("/v1/split/rule", { percent: 40, address: PARTNER_ADDRESS, network: "tron" }, merchant)).status).toBe(200);
  });

  it("never lets racing creations add up to more than 100 percent", async () => {
    const merchant = await makeMerchant();
    const responses = await Promise.all(Array.from({ length: 25 }, () => callSigned("/v1/split/rule", { percent: 7.5, address: PARTNER_ADDRESS, network: "tron" }, merchant)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(13);
    expect(new Set(responses.filter((response) => response.status !== 200).map((response) => response.body.error.code))).toEqual(new Set(["split.exceeds_100"]));
    const total = await getTestDb().splitRule.aggregate({ where: { merchantId: merchant.merchantId, active: true }, _sum: { percentBps: true } });
    expect(total._sum.percentBps).toBe(9750);
  });

  it("keeps the refund window in the split config, and answers split.disabled when the operator turned splits off", async () => {
    const merchant = await makeMerchant();
    expect((await callSigned("/v1/split/config/get", {}, merchant)).body.result).toEqual({ refund_hold_hours: 72 });
    expect((await callSigned("/v1/split/config/set", { refund_hold_hours: 0 }, merchant)).body.result).toEqual({ refund_hold_hours: 0 });
    expect((await callSigned("/v1/split/config/get", {}, merchant)).body.result).toEqual({ refund_hold_hours: 0 });
    for (const hours of [-1, 2161, 1.5]) {
      const response = await callSigned("/v1/split/config/set", { refund_hold_hours: hours }, merchant);
      expect([response.status, response.body.error.code]).toEqual([400, "split.bad_hold_hours"]);
    }
    const off = makeTestDeps({}, { GATEWAY_SPLITS: "0" });
    for (const [path, body] of [["/v1/split/rule", { percent: 10, address: PARTNER_ADDRESS, network: "tron" }], ["/v1/split/rule/list", {}], ["/v1/split/config/get", {}]] as const) {
      const response = await callSigned(path, body, merchant, { deps: off });
      expect([response.status, response.body.error.code]).toEqual([503, "split.disabled"]);
    }
  });
});

describe("split shares", () => {
  it("holds an internal partner's share at settlement and releases it to the partner's available after the window", async () => {
    const merchant = await makeMerchant();
    const partner = await makeMerchant();
    await callSigned("/v1/split/rule", { percent: 12.5, merchant_id: partner.merchantId }, merchant);
    const paid = await payInvoice(merchant, "100.00");
    const [share] = await sharesOf(paid.uuid);
    const credited = toMinor(share.creditedMinor);
    const expected = percentOf(credited, 1250);
    expect(toMinor(share.heldMinor)).toBe(expected);
    expect(await balanceOf(merchant)).toMatchObject({ available: credited - expected, splitHeld: expected });
    // Before the window (72 h by default) nothing moves.
    expect(await releaseDueSplitShares(makeTestDeps())).toBeGreaterThanOrEqual(0);
    expect((await balanceOf(partner)).available).toBe(0n);
    await releaseLater(73);
    expect(await balanceOf(merchant)).toMatchObject({ available: credited - expected, splitHeld: 0n });
    expect((await balanceOf(partner)).available).toBe(expected);
    const released = (await sharesOf(paid.uuid))[0];
    expect([toMinor(released.heldMinor), toMinor(released.releasedMinor)]).toEqual([0n, expected]);
    // A second pass moves nothing again.
    await releaseLater(74);
    expect((await balanceOf(partner)).available).toBe(expected);
    await expectCleanLedger();
  });

  it("shrinks a held share with a partial refund and cancels it with a full one, within the window", async () => {
    const merchant = await makeMerchant();
    const partner = await makeMerchant();
    await callSigned("/v1/split/rule", { percent: 20, merchant_id: partner.merchantId }, merchant);
    const paid = await payInvoice(merchant, "100.00");
    const credited = toMinor((await sharesOf(paid.uuid))[0].creditedMinor);
    const refund = (await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "30", address: REFUND_ADDRESS }, merchant)).body.result;
    expect(refund.amount).toBe("30");
    const afterPartial = (await sharesOf(paid.uuid))[0];
    expect(toMinor(afterPartial.heldMinor)).toBe(percentOf(credited - 30_000_000n, 2000));
    expect((await balanceOf(merchant)).splitHeld).toBe(percentOf(credited - 30_000_000n, 2000));

    // The rest of the payment: the merchant bears the refund fees, so another payment funds them.
    const funding = await payInvoice(merchant, "20.00");
    const rest = parseAmount(paid.payer_amount, 6)! - 30_000_000n;
    expect((await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: formatAmount(rest, 6), address: REFUND_ADDRESS }, merchant)).status).toBe(200);
    const cancelled = (await sharesOf(paid.uuid))[0];
    expect(toMinor(cancelled.heldMinor)).toBe(0n);
    await releaseLater(100);
    // Only the other payment's share reaches the partner.
    expect((await balanceOf(partner)).available).toBe(toMinor((await sharesOf(funding.uuid))[0].releasedMinor));
    expect(toMinor((await sharesOf(funding.uuid))[0].releasedMinor)).toBeGreaterThan(0n);
    await expectCleanLedger();
  });

  it("gives a share shrunk during the maturity hold back to maturing funds: a refund cannot spend them early", async () => {
    const deps = makeTestDeps({}, { GATEWAY_MATURITY_HOLD_SECONDS: "3600" });
    const merchant = await makeMerchant();
    const partner = await makeMerchant();
    await callSigned("/v1/split/rule", { percent: 100, merchant_id: partner.merchantId }, merchant, { deps });
    await callSigned("/v1/refund/fee-config/set", { payer: "customer" }, merchant, { deps });
    const invoice = (await callSigned("/v1/payment", { amount: "100.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant, { deps })).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant, { deps });
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant, { deps });
    const held = toMinor((await sharesOf(invoice.uuid))[0].heldMinor);
    expect(await balanceOf(merchant)).toMatchObject({ available: 0n, splitHeld: held });

    const early = await callSigned("/v1/payment/refund", { uuid: invoice.uuid, amount: "10", address: REFUND_ADDRESS }, merchant, { deps });
    expect([early.status, early.body.error.code]).toEqual([409, "payout.funds_maturing"]);
    expect(toMinor((await sharesOf(invoice.uuid))[0].heldMinor)).toBe(held);

    // Once the payment's funds have matured, the same refund goes through, paid by the shrunk share.
    // This merchant's hold ends (other tests' lots keep theirs).
    await getTestDb().maturityLot.updateMany({ where: { merchantId: merchant.merchantId }, data: { maturesAt: new Date(Date.now() - 1000) } });
    await matureDueLots(getTestDb(), new Date());
    const later = await callSigned("/v1/payment/refund", { uuid: invoice.uuid, amount: "10", address: REFUND_ADDRESS }, merchant, { deps });
    expect(later.status).toBe(200);
    expect(toMinor((await sharesOf(invoice.uuid))[0].heldMinor)).toBe(held - 10_000_000n);
    await expectCleanLedger();
  });

  it("claws an internal share back from the partner after the window, into the partner's debt when it was spent", async () => {
    const merchant = await makeMerchant();
    const partner = await makeMerchant();
    await payInvoice(merchant, "50.00"); // covers the refund's fee (paid before the rule: no share)
    await callSigned("/v1/split/config/set", { refund_hold_hours: 0 }, merchant);
    await callSigned("/v1/split/rule", { percent: 50, merchant_id: partner.merchantId }, merchant);
    const paid = await payInvoice(merchant, "100.00");
    await releaseDueSplitShares(makeTestDeps());
    const share = percentOf(toMinor((await sharesOf(paid.uuid))[0].creditedMinor), 5000);
    expect((await balanceOf(partner)).available).toBe(toMinor((await sharesOf(paid.uuid))[0].releasedMinor));
    // The partner pays out most of what it received.
    const spent = share - 1_000_000n;
    const payout = await callSigned("/v1/payout", { amount: (Number(spent) / 1e6).toFixed(6), currency: "USDT", network: "tron", address: PARTNER_ADDRESS, order_id: "spend", is_subtract: false }, partner);
    expect(payout.status).toBe(200);

    const refund = await callSigned("/v1/payment/refund", { uuid: paid.uuid, address: REFUND_ADDRESS }, merchant);
    expect(refund.status).toBe(200);
    const after = (await sharesOf(paid.uuid))[0];
    expect(toMinor(after.releasedMinor)).toBe(0n);
    const partnerBalance = await balanceOf(partner);
    expect(partnerBalance.available).toBe(0n);
    expect(partnerBalance.debt).toBe(share - 1_000_000n);
    // The partner's next incoming share pays its debt back first.
    const next = await payInvoice(merchant, "100.00");
    await releaseDueSplitShares(makeTestDeps());
    const nextShare = toMinor((await sharesOf(next.uuid))[0].releasedMinor);
    const repaid = await balanceOf(partner);
    expect(repaid.debt).toBe(share - 1_000_000n - nextShare > 0n ? share - 1_000_000n - nextShare : 0n);
    await expectCleanLedger();
  });

  it("sends an external share as a payout of kind split after the window, the fee taken from it; a later refund leaves it sent", async () => {
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    await callSigned("/v1/split/config/set", { refund_hold_hours: 0 }, merchant);
    await callSigned("/v1/split/rule", { percent: 25, address: PARTNER_ADDRESS, network: "tron" }, merchant);
    // An external rule shares only payments received on its network.
    await callSigned("/v1/split/rule", { percent: 10, address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", network: "ethereum" }, merchant);
    const paid = await payInvoice(merchant, "100.00");
    const shares = await sharesOf(paid.uuid);
    expect(shares).toHaveLength(1);
    const held = toMinor(shares[0].heldMinor);
    await releaseDueSplitShares(deps);
    const payout = await getTestDb().payout.findFirstOrThrow({ where: { merchantId: merchant.merchantId, kind: "split" } });
    expect(payout).toMatchObject({ invoiceId: paid.uuid, address: PARTNER_ADDRESS, status: "approved", isSubtract: false, createdBy: "split" });
    expect(toMinor(payout.debitMinor)).toBe(held);
    expect(toMinor(payout.amountMinor) + toMinor(payout.feeMinor)).toBe(held);
    expect((await balanceOf(merchant)).splitHeld).toBe(0n);
    const info = (await callSigned("/v1/payout/info", { uuid: payout.id }, merchant)).body.result;
    expect(info).toMatchObject({ kind: "split", payment_uuid: paid.uuid, status: "process" });

    const sender = getChainSender(deps.db, deps.config, "tron")!;
    await sendPayouts(deps, "tron", sender);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant); // tron min_confirmations
    await sendPayouts(deps, "tron", sender);
    expect((await getTestDb().payout.findUniqueOrThrow({ where: { id: payout.id } })).status).toBe("confirmed");

    await payInvoice(merchant, "100.00"); // the refund's money
    expect((await callSigned("/v1/payment/refund", { uuid: paid.uuid, address: REFUND_ADDRESS }, merchant)).status).toBe(200);
    expect(toMinor((await sharesOf(paid.uuid))[0].releasedMinor)).toBe(held);
    await expectCleanLedger();
  });

  it("sends an external share again when its payout fails, and returns it to the merchant after three failures", async () => {
    const merchant = await makeMerchant();
    await callSigned("/v1/split/config/set", { refund_hold_hours: 0 }, merchant);
    await callSigned("/v1/split/rule", { percent: 30, address: PARTNER_ADDRESS, network: "tron" }, merchant);
    const paid = await payInvoice(merchant, "100.00");
    const held = toMinor((await sharesOf(paid.uuid))[0].heldMinor);
    const available = (await balanceOf(merchant)).available;
    for (let attempt = 1; attempt <= 3; attempt++) {
      // Each retry waits an hour after the failure.
      await releaseLater(attempt * 2);
      const payout = await getTestDb().payout.findFirstOrThrow({ where: { merchantId: merchant.merchantId, kind: "split", status: "approved" } });
      expect(toMinor(payout.debitMinor)).toBe(held);
      await withTransaction(getTestDb(), async (tx) => {
        expect(await applyPayoutFact(tx, payout, { kind: "transfer_gave_up" }, new Date())).not.toBeNull();
      });
      const share = (await sharesOf(paid.uuid))[0];
      if (attempt < 3) {
        expect([toMinor(share.heldMinor), toMinor(share.releasedMinor)]).toEqual([held, 0n]);
        expect(share.reason).toContain(payout.id);
        expect((await balanceOf(merchant)).splitHeld).toBe(held);
        await expectCleanLedger();
      } else {
        expect([toMinor(share.heldMinor), toMinor(share.releasedMinor), toMinor(share.returnedMinor)]).toEqual([0n, 0n, held]);
        expect(await balanceOf(merchant)).toMatchObject({ available: available + held, splitHeld: 0n });
      }
    }
    expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId, kind: "split", status: "failed" } })).toBe(3);
    await releaseLater(10);
    expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId, kind: "split" } })).toBe(3);
    await expectCleanLedger();
  });

  it("gives money arriving late for a payment whose share was released a refund window of its own", async () => {
    const merchant = await makeMerchant();
    const partner = await makeMerchant();
    await callSigned("/v1/split/config/set", { refund_hold_hours: 0 }, merchant);
    await callSigned("/v1/split/rule", { percent: 10, merchant_id: partner.merchantId }, merchant);
    const invoice = (await callSigned("/v1/payment", { amount: "100.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
    await releaseDueSplitShares(makeTestDeps());
    const first = toMinor((await sharesOf(invoice.uuid))[0].releasedMinor);
    expect(first).toBeGreaterThan(0n);

    await callSigned("/v1/split/config/set", { refund_hold_hours: 24 }, merchant);
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: "50" }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
    const grown = (await sharesOf(invoice.uuid))[0];
    const late = percentOf(toMinor(grown.creditedMinor), 1000) - first;
    expect(late).toBeGreaterThan(4_000_000n); // 10 % of 50 USDT net of the platform fee
    expect(toMinor(grown.heldMinor)).toBe(late);
    expect(grown.releaseAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    await releaseDueSplitShares(makeTestDeps());
    expect((await balanceOf(partner)).available).toBe(first);
    await releaseLater(25);
    expect((await balanceOf(partner)).available).toBe(first + late);
    await expectCleanLedger();
  });

  it("returns an external share to the merchant when screening blocks the address at release", async () => {
    const merchant = await makeMerchant();
    await callSigned("/v1/split/config/set", { refund_hold_hours: 0 }, merchant);
    await callSigned("/v1/split/rule", { percent: 10, address: REFUND_ADDRESS, network: "tron" }, merchant);
    const paid = await payInvoice(merchant, "100.00");
    const before = await balanceOf(merchant);
    await blockAddress(getTestDb(), { address: REFUND_ADDRESS, network: "tron", reason: "test" });
    try {
      await releaseDueSplitShares(makeTestDeps());
    } finally {
      await unblockAddress(getTestDb(), { address: REFUND_ADDRESS, network: "tron" });
    }
    const [share] = await sharesOf(paid.uuid);
    expect(share).toMatchObject({ reason: "compliance.blocked" });
    expect(toMinor(share.returnedMinor)).toBe(before.splitHeld);
    expect(await balanceOf(merchant)).toMatchObject({ available: before.available + before.splitHeld, splitHeld: 0n });
    expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId, kind: "split" } })).toBe(0);
    await expectCleanLedger();
  });

  it("grows a shrunk share back when its refund fails, and takes no share of payments after the rule is deleted", async () => {
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    const partner = await makeMerchant();
    const rule = (await callSigned("/v1/split/rule", { percent: 10, merchant_id: partner.merchantId }, merchant)).body.result;
    const paid = await payInvoice(merchant, "100.00");
    const original = toMinor((await sharesOf(paid.uuid))[0].heldMinor);
    const refund = (await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "40", address: REFUND_ADDRESS }, merchant)).body.result;
    expect(toMinor((await sharesOf(paid.uuid))[0].heldMinor)).toBeLessThan(original);
    // The chain gives up on the refund: its reserve comes back, and the share with it.
    await withTransaction(deps.db, async (tx) => {
      const row = await tx.payout.findUniqueOrThrow({ where: { id: refund.uuid } });
      expect(await applyPayoutFact(tx, row, { kind: "transfer_gave_up" }, new Date())).not.toBeNull();
    });
    expect(toMinor((await sharesOf(paid.uuid))[0].heldMinor)).toBe(original);

    await callSigned("/v1/split/rule/delete", { rule_id: rule.rule_id }, merchant);
    const later = await payInvoice(merchant, "100.00");
    expect(await sharesOf(later.uuid)).toEqual([]);
    // The share taken before the deletion still goes out.
    await releaseLater(73);
    expect((await balanceOf(partner)).available).toBe(original);
    await expectCleanLedger();
  });

  it("never takes a payment's shares and refunds beyond what it received, however many refunds race", async () => {
    const merchant = await makeMerchant();
    const partners = await Promise.all([makeMerchant(), makeMerchant()]);
    await callSigned("/v1/split/rule", { percent: 30, merchant_id: partners[0].merchantId }, merchant);
    await callSigned("/v1/split/rule", { percent: 15.5, merchant_id: partners[1].merchantId }, merchant);
    const paid = await payInvoice(merchant, "100.00");
    await payInvoice(merchant, "100.00"); // fees for every refund
    const responses = await Promise.all(Array.from({ length: 16 }, (_, index) => callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: String(8 + index / 100), address: REFUND_ADDRESS }, merchant)));
    const accepted = responses.filter((response) => response.status === 200).map((response) => parseAmount(response.body.result.amount, 6)!);
    expect(new Set(responses.filter((response) => response.status !== 200).map((response) => response.body.error.code))).toEqual(new Set(["refund.exceeds_refundable"]));
    const refunded = accepted.reduce((sum, amount) => sum + amount, 0n);
    for (const share of await sharesOf(paid.uuid)) {
      expect(toMinor(share.heldMinor)).toBe(percentOf(toMinor(share.creditedMinor) - refunded, share.percentBps));
    }
    await expectCleanLedger();
  });

  it("takes shares back when a reorganisation removes the payment: held ones at once, an internal partner's after release", async () => {
    const merchant = await makeMerchant();
    const partner = await makeMerchant();
    await callSigned("/v1/split/rule", { percent: 40, merchant_id: partner.merchantId }, merchant);
    const held = await paidByDeposit(merchant);
    await callSigned("/v1/split/config/set", { refund_hold_hours: 0 }, merchant);
    const released = await paidByDeposit(merchant);
    await releaseDueSplitShares(makeTestDeps());
    const releasedShare = toMinor((await sharesOf(released.uuid))[0].releasedMinor);
    expect(releasedShare).toBeGreaterThan(0n);
    expect((await balanceOf(partner)).available).toBe(releasedShare);
    expect((await balanceOf(merchant)).splitHeld).toBe(toMinor((await sharesOf(held.uuid))[0].heldMinor));

    for (const payment of [held, released]) {
      await getTestDb().sandboxTransaction.delete({ where: { txid: payment.txid } });
      const transfer = await getTestDb().chainTransfer.findFirstOrThrow({ where: { txid: payment.txid } });
      await getTestDb().sandboxBlock.update({ where: { network_height: { network: "tron", height: transfer.blockHeight! } }, data: { hash: randomBytes(32).toString("hex") } });
    }
    await scanNetwork(makeTestDeps(), createSandboxAdapter(getTestDb(), "tron"));

    for (const payment of [held, released]) {
      const [share] = await sharesOf(payment.uuid);
      expect([share.creditedMinor.toFixed(), share.heldMinor.toFixed(), share.releasedMinor.toFixed()]).toEqual(["0", "0", "0"]);
    }
    expect(await balanceOf(partner)).toMatchObject({ available: 0n, debt: 0n });
    expect(await balanceOf(merchant)).toMatchObject({ available: 0n, splitHeld: 0n, debt: 0n });
    await expectCleanLedger();
  });
});

/** A payment made by a sandbox deposit, confirmed; with its transaction id. */
async function paidByDeposit(merchant: TestMerchant): Promise<{ uuid: string; txid: string }> {
  const invoice = (await callSigned("/v1/payment", { amount: "100.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
  const txid = (await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant)).body.result.txid;
  await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
  return { uuid: invoice.uuid, txid };
}
