import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getChainAdapter } from "@/lib/chains/registry";
import { resetRealChains, verifyRealChains } from "@/lib/chains/real-chains";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";
import { findNetwork } from "@/lib/catalogue";
import { validateAddress } from "@/lib/chains/addresses";
import { startLitecoind, type RegtestNode } from "@/lib/chains/utxo/testing/litecoind";
import { startFakeNode } from "@/lib/chains/utxo/testing/http-server";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { scanNetwork } from "./scan-chain";
import { parseAmount } from "@/lib/domain/money/amount";

// The whole payment path on a real UTXO node: litecoind -regtest started by this file.
let node: RegtestNode;
beforeAll(async () => {
  node = await startLitecoind();
  resetRealChains();
}, 120_000);
afterAll(async () => {
  resetRealChains();
  await node?.stop();
});

describe("an invoice paid on litecoind -regtest through the service", () => {
  it("derives a regtest deposit address, sees the deposit, counts confirmations and credits the merchant once", async () => {
    const env = { RPC_LITECOIN: node.rpcUrl };
    const deps = makeTestDeps({}, env);
    await verifyRealChains(deps.config, deps.db, env);
    expect(resolveNetworkStatus(findNetwork("litecoin")!, deps.config)).toEqual({ network: "litecoin", source: "rpc", chain: "regtest" });
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "LTC" }, merchant, { deps })).body.result;
    expect(invoice.network).toBe("litecoin");
    expect(invoice.address).toMatch(/^rltc1/);
    expect(validateAddress("litecoin", invoice.address, { chain: "regtest" }).ok).toBe(true);
    // Sandbox operations refuse a network served by a real node.
    expect((await callSigned("/v1/sandbox/mine", { network: "litecoin" }, merchant, { deps })).body.error.code).toBe("sandbox.not_sandbox");

    const adapter = getChainAdapter(deps.db, deps.config, "litecoin")!;
    expect(adapter.source).toBe("rpc");
    await scanNetwork(deps, adapter); // sets the cursor at the tip
    const txid = await node.rpc.call("sendtoaddress", [invoice.address, invoice.payer_amount], z.string());
    await scanNetwork(deps, adapter);
    const seen = (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result;
    expect(seen).toMatchObject({ payment_status: "confirm_check", txid, confirmations: 0, payer_address: "" });

    await node.mine(invoice.required_confirmations);
    await scanNetwork(deps, adapter);
    await scanNetwork(deps, adapter); // a repeated pass credits nothing twice
    const paid = (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result;
    expect(paid).toMatchObject({ payment_status: "paid", is_final: true, amount_paid: invoice.payer_amount });
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances).toHaveLength(1);
    expect(balances[0].asset).toBe("LTC:litecoin");
    expect(await getTestDb().chainTransfer.count({ where: { invoiceId: invoice.uuid } })).toBe(1);

    // The sweeper moves the deposit to the hot wallet with a locally signed transaction.
    const { getChainSender } = await import("@/lib/chains/registry");
    const { sweepNetwork } = await import("@/lib/services/sweeps/sweep-deposits");
    const sender = getChainSender(deps.db, deps.config, "litecoin")!;
    await sweepNetwork(deps, "litecoin", sender);
    const sweep = await getTestDb().outgoingTransfer.findFirstOrThrow({ where: { fromAddress: invoice.address } });
    expect(sweep).toMatchObject({ kind: "sweep", status: "sent", currency: "LTC" });
    expect(sweep.toAddress).toMatch(/^rltc1/);
    const mempool = await node.rpc.call("getrawmempool", [], z.array(z.string()));
    expect(mempool).toContain(sweep.txid);
    await node.mine(1);
    await sweepNetwork(deps, "litecoin", sender);
    expect((await getTestDb().outgoingTransfer.findUniqueOrThrow({ where: { id: sweep.id } })).status).toBe("confirmed");
    // The RPC client hands amounts over as the node's exact decimal text.
    const received = await node.rpc.call("scantxoutset", ["start", [`addr(${sweep.toAddress})`]], z.object({ total_amount: z.string() }));
    expect(parseAmount(received.total_amount, 8)).toBe(BigInt(sweep.amountMinor.toFixed()));
  });

  it("refuses a node that reports a production chain while sandbox mode is on", async () => {
    const fake = await startFakeNode({
      getblockchaininfo: () => JSON.stringify({ chain: "main", blocks: 850000, bestblockhash: "00".repeat(32) }),
    });
    try {
      const env = { RPC_BITCOIN: `http://u:p@127.0.0.1:${fake.port}` };
      const deps = makeTestDeps({}, env);
      await verifyRealChains(deps.config, deps.db, env);
      const status = resolveNetworkStatus(findNetwork("bitcoin")!, deps.config);
      expect(status.source).toBe("off");
      expect(status.detail).toMatch(/production chain/);
      const merchant = await makeMerchant();
      const refused = await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "BTC" }, merchant, { deps });
      expect(refused.body.error.code).toBe("payment.unsupported_network");
    } finally {
      await fake.close();
    }
  });
});
