import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getChainAdapter } from "@/lib/chains/registry";
import { resetRealChains } from "@/lib/chains/real-chains";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";
import { findNetwork } from "@/lib/catalogue";
import { validateAddress } from "@/lib/chains/addresses";
import { startLitecoind, type RegtestNode } from "@/lib/chains/utxo/testing/litecoind";
import { startFakeNode } from "@/lib/chains/utxo/testing/http-server";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { parseAmount } from "@/lib/domain/money/amount";

// The whole payment path on a real UTXO node: litecoind -regtest started by this file.
let node: RegtestNode;
beforeAll(async () => {
  // Fees well above the dust limit, as on a busy chain: a sweep's unspent fee reserve is real change.
  node = await startLitecoind(["-minrelaytxfee=0.002", "-fallbackfee=0.002"]);
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
    await verifyChains(deps.config, deps.db);
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
    const { sweepNetwork } = await import("@/lib/jobs/handlers/sweep-deposits");
    const sender = getChainSender(deps.db, deps.config, "litecoin")!;
    await sweepNetwork(deps, "litecoin", sender);
    const sweep = await getTestDb().outgoingTransfer.findFirstOrThrow({ where: { fromAddress: invoice.address } });
    expect(sweep).toMatchObject({ kind: "sweep", status: "seen", currency: "LTC" });
    expect(sweep.toAddress).toMatch(/^rltc1/);
    const mempool = await node.rpc.call("getrawmempool", [], z.array(z.string()));
    expect(mempool).toContain(sweep.txid);
    await node.mine(1);
    await sweepNetwork(deps, "litecoin", sender);
    expect((await getTestDb().outgoingTransfer.findUniqueOrThrow({ where: { id: sweep.id } })).status).toBe("confirmed");
    // The deposit address is emptied: the change went to the hot wallet, never back to the deposit.
    // (The RPC client hands amounts over as the node's exact decimal text.)
    const holding = async (address: string) =>
      parseAmount((await node.rpc.call("scantxoutset", ["start", [`addr(${address})`]], z.object({ total_amount: z.string() }))).total_amount, 8)!;
    expect(await holding(invoice.address)).toBe(0n);
    const deposited = parseAmount(invoice.payer_amount, 8)!;
    const atHotWallet = await holding(sweep.toAddress);
    expect(atHotWallet).toBeGreaterThan(BigInt(sweep.amountMinor.toFixed()));
    expect(atHotWallet).toBeLessThan(deposited);

    // Watching on, and reading the whole history again, credits nothing more: not the sweep's
    // output, not its change.
    const before = await listMerchantBalances(getTestDb(), merchant.merchantId);
    await scanNetwork(deps, adapter);
    await getTestDb().chainCursor.update({ where: { network: "litecoin" }, data: { height: -1, blockHash: "" } });
    await scanNetwork(deps, adapter);
    expect(await getTestDb().chainTransfer.count({ where: { network: "litecoin", toAddress: { in: [invoice.address, sweep.toAddress] } } })).toBe(1);
    expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.amount_paid).toBe(invoice.payer_amount);
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual(before);
  });

  it("lets two worker processes sweep at once: every deposit moves once, to the hot wallet, no coin spent twice", async () => {
    const env = { RPC_LITECOIN: node.rpcUrl };
    const deps = makeTestDeps({}, env);
    await verifyChains(deps.config, deps.db);
    const adapter = getChainAdapter(deps.db, deps.config, "litecoin")!;
    const merchant = await makeMerchant();
    const invoices = [];
    for (let i = 0; i < 3; i++) {
      const invoice = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "LTC" }, merchant, { deps })).body.result;
      await node.rpc.call("sendtoaddress", [invoice.address, invoice.payer_amount], z.string());
      invoices.push(invoice);
    }
    await node.mine(invoices[0].required_confirmations);
    await scanNetwork(deps, adapter);
    const holding = async (address: string) =>
      parseAmount((await node.rpc.call("scantxoutset", ["start", [`addr(${address})`]], z.object({ total_amount: z.string() }))).total_amount, 8)!;
    const { loadKeyMaterial } = await import("@/lib/chains/key-material");
    const { deriveSigningKey, HOT_WALLET_INDEX } = await import("@/lib/chains/signing-keys");
    const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "litecoin", HOT_WALLET_INDEX, "regtest").address;
    const hotBefore = await holding(hot);

    const { spawnSweepWorker } = await import("@/lib/testing/spawn-worker");
    const workers = [spawnSweepWorker("litecoin", 2, env), spawnSweepWorker("litecoin", 2, env)];
    const outcomes = await Promise.all(workers.map((worker) => worker.exited));
    for (const outcome of outcomes) expect(outcome.code, outcome.stderr).toBe(0);
    await node.mine(1);
    const { getChainSender } = await import("@/lib/chains/registry");
    const { sweepNetwork } = await import("@/lib/jobs/handlers/sweep-deposits");
    await sweepNetwork(deps, "litecoin", getChainSender(deps.db, deps.config, "litecoin")!);

    const sweeps = await getTestDb().outgoingTransfer.findMany({ where: { network: "litecoin", fromAddress: { in: invoices.map((invoice) => invoice.address) } } });
    expect(sweeps.map((sweep) => sweep.status), JSON.stringify(sweeps.map((sweep) => [sweep.status, sweep.lastError, sweep.isShortOfFunds, sweep.broadcasts]))).toEqual(["confirmed", "confirmed", "confirmed"]);
    for (const invoice of invoices) expect(await holding(invoice.address)).toBe(0n);
    // The hot wallet got every deposit less the exact fee of its sweep.
    const deposited = invoices.reduce((sum, invoice) => sum + parseAmount(invoice.payer_amount, 8)!, 0n);
    const fees = sweeps.reduce((sum, sweep) => sum + BigInt(sweep.feeMinor!.toFixed()), 0n);
    expect((await holding(hot)) - hotBefore).toBe(deposited - fees);
    expect(await getTestDb().outgoingOutpoint.count({ where: { transferId: { in: sweeps.map((sweep) => sweep.id) } } })).toBe(0);
  });

  it("pays out LTC from the hot wallet: the recipient gets exactly the payout's amount, the change returns to the hot wallet", async () => {
    const env = { RPC_LITECOIN: node.rpcUrl };
    const deps = makeTestDeps({}, env);
    await verifyChains(deps.config, deps.db);
    const adapter = getChainAdapter(deps.db, deps.config, "litecoin")!;
    const merchant = await makeMerchant();
    await callSigned("/v1/webhooks", { url: "http://127.0.0.1:9/hook" }, merchant, { deps });
    const invoice = (await callSigned("/v1/payment", { amount: "80.00", currency: "USD", to_currency: "LTC" }, merchant, { deps })).body.result;
    await node.rpc.call("sendtoaddress", [invoice.address, invoice.payer_amount], z.string());
    await node.mine(invoice.required_confirmations);
    await scanNetwork(deps, adapter);
    const { getChainSender } = await import("@/lib/chains/registry");
    const { sweepNetwork } = await import("@/lib/jobs/handlers/sweep-deposits");
    const { sendPayouts } = await import("@/lib/jobs/handlers/send-payouts");
    const sender = getChainSender(deps.db, deps.config, "litecoin")!;
    await sweepNetwork(deps, "litecoin", sender);
    await node.mine(1);
    await sweepNetwork(deps, "litecoin", sender);

    const recipient = await node.rpc.call("getnewaddress", [], z.string());
    const holding = async (address: string) =>
      parseAmount((await node.rpc.call("scantxoutset", ["start", [`addr(${address})`]], z.object({ total_amount: z.string() }))).total_amount, 8)!;
    const payout = (await callSigned("/v1/payout", { amount: "0.05", currency: "LTC", address: recipient, order_id: "ltc-out", is_subtract: true }, merchant, { deps })).body.result;
    expect(payout).toMatchObject({ network: "litecoin", status: "process", receive_amount: "0.05" });
    await sendPayouts(deps, "litecoin", sender);
    const sent = (await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant, { deps })).body.result;
    expect(sent.internal_status).toBe("sent");
    expect(await node.rpc.call("getrawmempool", [], z.array(z.string()))).toContain(sent.txid);
    // In a block is not final: litecoin's min_confirmations is 3.
    await node.mine(1);
    await sendPayouts(deps, "litecoin", sender);
    expect((await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant, { deps })).body.result.internal_status).toBe("sent");
    await node.mine(2);
    await sendPayouts(deps, "litecoin", sender);
    const confirmed = (await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant, { deps })).body.result;
    expect(confirmed).toMatchObject({ internal_status: "confirmed", status: "paid", txid: sent.txid });
    expect(await holding(recipient)).toBe(parseAmount("0.05", 8));
    // One transaction, and its change is the hot wallet's (the sender's own address), not a deposit's.
    expect(await getTestDb().outgoingTransfer.count({ where: { reference: { startsWith: `payout:${payout.uuid}:` } } })).toBe(1);
    const transaction = await node.rpc.call("getrawtransaction", [sent.txid, true], z.object({ vout: z.array(z.object({ scriptPubKey: z.object({ address: z.string().optional(), addresses: z.array(z.string()).optional() }) })) }));
    const hot = (await getTestDb().outgoingTransfer.findFirstOrThrow({ where: { reference: `payout:${payout.uuid}:send:1` } })).fromAddress;
    // (Older nodes list an output's address in `addresses`.)
    const outputs = transaction.vout.map((output) => output.scriptPubKey.address ?? output.scriptPubKey.addresses?.[0]);
    expect(new Set(outputs)).toEqual(new Set([recipient, hot]));
    const event = await getTestDb().webhookDelivery.findFirstOrThrow({ where: { objectId: payout.uuid, eventType: "payout.confirmed", target: "endpoint" } });
    expect(JSON.parse(event.body)).toMatchObject({ status: "paid", is_final: true, txid: sent.txid, currency: "LTC", network: "litecoin" });
    const { auditLedger, CLEAN_LEDGER_AUDIT } = await import("@/lib/ledger/audit");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("refuses a node that reports a production chain while sandbox mode is on", async () => {
    const fake = await startFakeNode({
      getblockchaininfo: () => JSON.stringify({ chain: "main", blocks: 850000, bestblockhash: "00".repeat(32) }),
    });
    try {
      const env = { RPC_BITCOIN: `http://u:p@127.0.0.1:${fake.port}` };
      const deps = makeTestDeps({}, env);
      await verifyChains(deps.config, deps.db);
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

  it("refuses a node without a transaction index: the service could not follow its own transactions", async () => {
    const regtest = { getblockchaininfo: () => JSON.stringify({ chain: "regtest", blocks: 100, bestblockhash: "00".repeat(32) }) };
    for (const [answers, reason] of [
      [regtest, /-txindex/],
      [{ ...regtest, getindexinfo: () => JSON.stringify({ txindex: { synced: false, best_block_height: 10 } }) }, /still being built/],
    ] as const) {
      const fake = await startFakeNode(answers);
      try {
        const env = { RPC_DOGECOIN: `http://u:p@127.0.0.1:${fake.port}` };
        const deps = makeTestDeps({}, env);
        await verifyChains(deps.config, deps.db);
        const status = resolveNetworkStatus(findNetwork("dogecoin")!, deps.config);
        expect(status.source).toBe("off");
        expect(status.detail).toMatch(reason);
      } finally {
        await fake.close();
      }
    }
    // The real node of this suite runs with -txindex and is served.
    const env = { RPC_LITECOIN: node.rpcUrl };
    const deps = makeTestDeps({}, env);
    await verifyChains(deps.config, deps.db);
    expect(resolveNetworkStatus(findNetwork("litecoin")!, deps.config).source).toBe("rpc");

    // A second endpoint without the index would answer for the first: the network is refused, and says which.
    const lacking = await startFakeNode(regtest);
    try {
      const listed = { RPC_LITECOIN: `${node.rpcUrl},http://u:p@127.0.0.1:${lacking.port}` };
      const withLacking = makeTestDeps({}, listed);
      await verifyChains(withLacking.config, withLacking.db);
      const status = resolveNetworkStatus(findNetwork("litecoin")!, withLacking.config);
      expect(status).toMatchObject({ source: "off", detail: expect.stringMatching(/^refused: endpoint 2:127\.0\.0\.1:\d+: the node runs without a transaction index/) });
    } finally {
      await lacking.close();
    }

    // A second endpoint on another chain (testnet behind the regtest node): refused, and says which.
    const elsewhere = await startFakeNode({ getblockchaininfo: () => JSON.stringify({ chain: "test", blocks: 100, bestblockhash: "00".repeat(32) }), getindexinfo: () => JSON.stringify({ txindex: { synced: true, best_block_height: 100 } }) });
    try {
      const listed = { RPC_LITECOIN: `${node.rpcUrl},http://u:p@127.0.0.1:${elsewhere.port}` };
      const withElsewhere = makeTestDeps({}, listed);
      await verifyChains(withElsewhere.config, withElsewhere.db);
      const status = resolveNetworkStatus(findNetwork("litecoin")!, withElsewhere.config);
      expect(status).toMatchObject({ source: "off", detail: expect.stringMatching(/^refused: endpoint 2:127\.0\.0\.1:\d+: serves test, endpoint 1:127\.0\.0\.1:\d+ serves regtest$/) });
    } finally {
      await elsewhere.close();
    }
  });
});
