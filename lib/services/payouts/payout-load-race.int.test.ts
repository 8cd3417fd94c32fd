import { parseAmount } from "@/lib/domain/money/amount";
import { describe, expect, it } from "vitest";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { makeFundedMerchant } from "@/lib/testing/funding";
import { callSigned, getTestDb } from "@/lib/testing/harness";

// 1000 payout requests at once from 50 merchants racing for their balances: none goes below
// zero, no order_id is paid twice, and the books stay exact.

const ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

describe("1000 concurrent payouts from 50 merchants", () => {
  it("never takes a balance below zero nor makes one order_id twice, and leaves the ledger audit clean", { timeout: 180_000 }, async () => {
    const funded = [];
    for (let index = 0; index < 50; index++) funded.push(await makeFundedMerchant(index === 0 ? "150.00" : "60.00"));
    // Merchant 0 takes 216 requests (its one balance is the hot spot); the others 16 each, with
    // every fourth order_id sent twice.
    const requests = funded.flatMap(({ merchant }, index) =>
      Array.from({ length: index === 0 ? 216 : 16 }, (_, n) => {
        const orderId = `load-${index === 0 ? n : Math.floor(n / (n % 4 === 3 ? 2 : 1))}`;
        return { merchant, body: { amount: "5", currency: "USDT", network: "tron", address: ADDRESS, order_id: orderId, is_subtract: true } };
      }),
    );
    expect(requests).toHaveLength(1000);
    const responses = await Promise.all(requests.map(({ merchant, body }) => callSigned("/v1/payout", body, merchant)));
    const failed = responses.filter((response) => response.status >= 500);
    if (failed.length) console.log(JSON.stringify(failed[0].body));
    expect(failed).toEqual([]);
    const codes = new Set(responses.filter((response) => response.status !== 200).map((response) => response.body.error.code));
    for (const code of codes) expect(["payout.insufficient_funds", "payout.duplicate_reference"]).toContain(code);

    for (const { merchant, available } of funded) {
      const payouts = await getTestDb().payout.findMany({ where: { merchantId: merchant.merchantId } });
      expect(new Set(payouts.map((payout) => payout.orderId)).size).toBe(payouts.length);
      const debits = payouts.reduce((sum, payout) => sum + BigInt(payout.debitMinor.toFixed()), 0n);
      const balance = (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant)).body.result.balances[0];
      const toMinor = (text: string) => parseAmount(text, 6)!;
      expect(toMinor(balance.available)).toBeGreaterThanOrEqual(0n);
      expect(toMinor(balance.available) + debits).toBe(toMinor(available));
      expect(toMinor(balance.payout_held)).toBe(debits);
      // Every merchant asked for more than it had: what is left does not fit one more payout.
      expect(toMinor(balance.available)).toBeLessThan(BigInt(payouts[0].debitMinor.toFixed()));
    }
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
