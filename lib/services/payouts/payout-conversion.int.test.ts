import { describe, expect, it } from "vitest";
import { findSettlementAsset } from "@/lib/catalogue";
import { getChainSender } from "@/lib/chains/registry";
import { parseAmount } from "@/lib/domain/money/amount";
import { isAppError } from "@/lib/errors";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { createSnapshotRateProvider, RateSourceError, type RateProvider } from "@/lib/rates";
import { fundMerchant, makeFundedMerchant } from "@/lib/testing/funding";
import { callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { quoteConversion } from "@/lib/services/money-out/payout-conversion";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// from_currency: a TRX payout funded from the merchant's USDT on tron (the sandbox rate table:
// TRX at 0.275 USD, USDT at 1), converted in the payout's own transaction.

const TRX_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const trxPayout = (overrides: Record<string, unknown> = {}) => ({ amount: "100", currency: "TRX", network: "tron", address: TRX_ADDRESS, order_id: `trx-${Math.random()}`, from_currency: "USDT", ...overrides });

async function balances(merchant: TestMerchant) {
  const all = (await callSigned("/v1/balance", {}, merchant)).body.result.balances as { currency: string; network: string; available: string; payout_held: string }[];
  const of = (currency: string) => all.find((entry) => entry.currency === currency && entry.network === "tron");
  return { usdt: parseAmount(of("USDT")?.available ?? "0", 6)!, trx: parseAmount(of("TRX")?.available ?? "0", 6)!, trxHeld: parseAmount(of("TRX")?.payout_held ?? "0", 6)! };
}

describe("payouts funded by conversion (from_currency)", () => {
  it("converts the debit from USDT at the quoted rate, reserves it, and answers result.convert", async () => {
    const { merchant } = await makeFundedMerchant("100.00");
    const before = await balances(merchant);
    const response = await callSigned("/v1/payout", trxPayout({ order_id: "convert-1" }), merchant);
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({
      amount: "100",
      currency: "TRX",
      status: "process",
      convert: { from_currency: "USDT", to_currency: "TRX", from_amount: "27.5", rate: "0.275", from_network: "tron" },
    });
    expect(await balances(merchant)).toEqual({ usdt: before.usdt - 27_500_000n, trx: 0n, trxHeld: 100_000_000n });
    const platform = await getTestDb().ledgerAccount.findMany({ where: { owner: "platform", bucket: "conversions", asset: { in: ["USDT:tron", "TRX:tron"] } } });
    expect(platform.length).toBe(2);

    // A repeat converts nothing more; the same order_id without conversion is other terms.
    const repeat = await callSigned("/v1/payout", trxPayout({ order_id: "convert-1" }), merchant);
    expect(repeat.body.result.uuid).toBe(response.body.result.uuid);
    expect((await balances(merchant)).usdt).toBe(before.usdt - 27_500_000n);
    const other = await callSigned("/v1/payout", trxPayout({ order_id: "convert-1", from_currency: undefined }), merchant);
    expect([other.status, other.body.error.code]).toEqual([409, "payout.duplicate_reference"]);
    expect((await callSigned("/v1/payout/info", { uuid: response.body.result.uuid }, merchant)).body.result.convert).toEqual(response.body.result.convert);

    // It goes out on chain like any payout.
    const deps = makeTestDeps();
    const sender = getChainSender(deps.db, deps.config, "tron")!;
    await sendPayouts(deps, "tron", sender);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant); // tron min_confirmations
    await sendPayouts(deps, "tron", sender);
    expect((await callSigned("/v1/payout/info", { uuid: response.body.result.uuid }, merchant)).body.result.status).toBe("paid");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("quotes the conversion in /v1/payout/calculate as creating the payout would make it, changing nothing", async () => {
    const { merchant } = await makeFundedMerchant("100.00");
    const before = await balances(merchant);
    const quote = await callSigned("/v1/payout/calculate", { amount: "100", currency: "TRX", network: "tron", from_currency: "USDT", is_subtract: false }, merchant);
    expect(quote.status).toBe(200);
    expect(quote.body.result).toMatchObject({ debit_amount: "100", convert: { from_currency: "USDT", to_currency: "TRX", from_amount: "27.5", rate: "0.275", from_network: "tron" } });
    expect(await balances(merchant)).toEqual(before);
    const created = (await callSigned("/v1/payout", trxPayout({ is_subtract: false }), merchant)).body.result;
    expect(created.convert).toEqual(quote.body.result.convert);
    const tooMuch = await callSigned("/v1/payout/calculate", { amount: "100000", currency: "TRX", network: "tron", from_currency: "USDT" }, merchant);
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([409, "payout.convert_insufficient"]);
  });

  it("refuses a conversion the USDT balance cannot cover, writing nothing", async () => {
    const { merchant } = await makeFundedMerchant("20.00");
    const before = await balances(merchant);
    const response = await callSigned("/v1/payout", trxPayout({ amount: "1000", order_id: "too-much" }), merchant);
    expect([response.status, response.body.error.code]).toEqual([409, "payout.convert_insufficient"]);
    expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
    expect(await balances(merchant)).toEqual(before);
    const empty = await makeMerchant();
    const nothing = await callSigned("/v1/payout", trxPayout(), empty);
    expect([nothing.status, nothing.body.error.code]).toEqual([409, "payout.convert_insufficient"]);
  });

  it("never converts more USDT than the merchant has, however many conversions race", async () => {
    const { merchant } = await makeFundedMerchant("60.00");
    const before = await balances(merchant);
    const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => callSigned("/v1/payout", trxPayout({ order_id: `race-${index}` }), merchant)));
    const accepted = responses.filter((response) => response.status === 200);
    expect(new Set(responses.filter((response) => response.status !== 200).map((response) => response.body.error.code))).toEqual(new Set(["payout.convert_insufficient"]));
    expect(BigInt(accepted.length) * 27_500_000n).toBeLessThanOrEqual(before.usdt);
    expect(BigInt(accepted.length + 1) * 27_500_000n).toBeGreaterThan(before.usdt);
    expect((await balances(merchant)).usdt).toBe(before.usdt - BigInt(accepted.length) * 27_500_000n);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("converts mass payout elements in order against the USDT balance", async () => {
    const { merchant } = await makeFundedMerchant("40.00");
    const response = await callSigned("/v1/payout/mass", { payouts: [trxPayout({ order_id: "m-1" }), trxPayout({ order_id: "m-2" }), trxPayout({ order_id: "m-3", amount: "10" })] }, merchant);
    expect(response.body.result.items.map((item: { success: boolean }) => item.success)).toEqual([true, false, true]);
    expect(response.body.result.items[1].message).toMatch(/USDT/);
  });

  it.each<[string, Partial<RateProvider>, number, string]>([
    ["a rate source that does not answer", { fetchUsdPrices: async () => Promise.reject(new RateSourceError("down", { retryable: true, source: "test" })) }, 503, "payout.convert_no_rate"],
    ["a coin the source does not price", { fetchUsdPrices: async (symbols) => new Map([...(await createSnapshotRateProvider().fetchUsdPrices(symbols))].filter(([symbol]) => symbol !== "TRX")) }, 400, "payout.convert_unsupported"],
  ])("refuses %s", async (_name, rates, status, code) => {
    const merchant = await makeMerchant();
    await fundMerchant(merchant, "50.00");
    const deps = makeTestDeps({ rates: { ...createSnapshotRateProvider(), ...rates } as RateProvider });
    const response = await callSigned("/v1/payout", trxPayout(), merchant, { deps });
    expect([response.status, response.body.error.code]).toEqual([status, code]);
  });

  it("waits for a live rate source outside sandbox mode (payout.convert_frozen)", async () => {
    const destination = { asset: findSettlementAsset("TRX", "tron")!, network: "tron" as const, address: TRX_ADDRESS, memo: undefined };
    const refusal = await quoteConversion({ rates: createSnapshotRateProvider(), config: { sandbox: false } }, "usdt", destination).catch((error: unknown) => error);
    expect(isAppError(refusal) && refusal.code).toBe("payout.convert_frozen");
    await expect(quoteConversion({ rates: { ...createSnapshotRateProvider(), isOffline: false }, config: { sandbox: false } }, "USDT", destination)).resolves.toMatchObject({ toPrice: expect.anything() });
  });
});
