import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { sweepNetwork } from "@/lib/jobs/handlers/sweep-deposits";

// On bitcoin's sandbox chain: the litecoind suites sweep "litecoin" on a real node at the same time.
describe("sweeping on a sandbox chain", () => {
  it("moves a credited deposit to the hot wallet once, follows it to confirmation and books the network fee", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps();
    const invoice = (await callSigned("/v1/payment", { amount: "30.00", currency: "USD", to_currency: "BTC" }, merchant)).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "bitcoin", currency: "BTC", address: invoice.address, amount: invoice.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "bitcoin", blocks: 20 }, merchant);
    const sender = getChainSender(deps.db, deps.config, "bitcoin")!;

    const first = await sweepNetwork(deps, "bitcoin", sender);
    expect(first.sent).toBeGreaterThanOrEqual(1);
    const sweep = await getTestDb().outgoingTransfer.findFirstOrThrow({ where: { fromAddress: invoice.address } });
    const [whole, fraction = ""] = invoice.payer_amount.split(".");
    const credited = BigInt(whole + fraction.padEnd(8, "0"));
    expect(sweep).toMatchObject({ kind: "sweep", status: "seen", currency: "BTC" });
    expect(sweep.rawTransaction).toBeTruthy();
    // Everything but the fee reserve (1.5 × the estimate) moves; the reserve covers the fee.
    expect(BigInt(sweep.amountMinor.toFixed()) + (BigInt(sweep.feeMinor!.toFixed()) * 150n) / 100n).toBe(credited);

    // A second pass plans nothing new while the sweep is on its way.
    await sweepNetwork(deps, "bitcoin", sender);
    expect(await getTestDb().outgoingTransfer.count({ where: { fromAddress: invoice.address } })).toBe(1);

    await callSigned("/v1/sandbox/mine", { network: "bitcoin" }, merchant);
    await sweepNetwork(deps, "bitcoin", sender);
    expect((await getTestDb().outgoingTransfer.findUniqueOrThrow({ where: { id: sweep.id } })).status).toBe("confirmed");
    expect(await getTestDb().ledgerJournal.count({ where: { reference: `outgoing:${sweep.id}:fee` } })).toBe(1);
    // Swept in full: nothing more to move from this address.
    await sweepNetwork(deps, "bitcoin", sender);
    expect(await getTestDb().outgoingTransfer.count({ where: { fromAddress: invoice.address } })).toBe(1);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
