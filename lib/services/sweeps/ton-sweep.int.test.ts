import { Address, toNano } from "@ton/core";
import { Blockchain } from "@ton/sandbox";
import { describe, expect, it } from "vitest";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import { createTonSandboxAccess } from "@/lib/chains/ton/testing/ton-sandbox-access";
import { createTonSender } from "@/lib/chains/ton/ton-sender";
import { deployTestJetton } from "@/lib/chains/ton/testing/test-jetton";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { sweepNetwork } from "@/lib/jobs/handlers/sweep-deposits";

// The sweeper against @ton/sandbox: a jetton deposit needs TON at its (undeployed) wallet, which the hot wallet sends first.
describe("sweeping jettons on @ton/sandbox", () => {
  it("sends TON for gas from the hot wallet, then moves the jettons to the hot wallet", async () => {
    const blockchain = await Blockchain.create();
    blockchain.now = 1_800_000_000;
    const chain = createTonSandboxAccess(blockchain);
    const treasury = await blockchain.treasury("treasury");
    const jetton = await deployTestJetton(chain, treasury);

    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "20.00", currency: "USD", to_currency: "USDT", network: "ton" }, merchant)).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "ton", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "ton", blocks: 40 }, merchant);
    const amount = parseAmount(invoice.payer_amount, 6)!;
    await jetton.mint(Address.parse(invoice.address), amount);

    const deps = makeTestDeps({}, { RPC_TON: "http://ton-sandbox.invalid" });
    const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "ton", HOT_WALLET_INDEX);
    await treasury.send({ to: Address.parse(hot.address), value: toNano("20"), bounce: false });
    chain.advanceTime(1);
    const sender = createTonSender({ access: chain, jettons: { USDT: jetton.master.toString() } });

    for (let pass = 0; pass < 5; pass++) {
      // Other test files' TON invoices have no funds here: keep their rows out of the way.
      await getTestDb().outgoingTransfer.updateMany({ where: { network: "ton", kind: { in: ["sweep", "gas"] }, fromAddress: { not: invoice.address }, toAddress: { not: invoice.address } }, data: { status: "failed" } });
      await sweepNetwork(deps, "ton", sender);
      chain.advanceTime(5);
    }

    const rows = await getTestDb().outgoingTransfer.findMany({ where: { OR: [{ fromAddress: invoice.address }, { toAddress: invoice.address }] }, orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => `${row.kind}:${row.currency}:${row.status}`)).toEqual(["gas:TON:confirmed", "sweep:USDT:confirmed"]);
    expect(await jetton.balanceOf(Address.parse(invoice.address))).toBe(0n);
    expect(await jetton.balanceOf(Address.parse(hot.address))).toBe(amount);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
