import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Abi, Address } from "viem";
import { getChainAdapter } from "@/lib/chains/registry";
import { resetRealChains } from "@/lib/chains/real-chains";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";
import type { ApiDeps } from "@/lib/api/deps";
import { findNetwork } from "@/lib/catalogue";
import { anvilClients, startAnvil, type Anvil } from "@/lib/chains/evm/testing/anvil";
import { deployTestToken } from "@/lib/chains/evm/testing/test-token";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";

// The whole payment path on a real EVM node: anvil started by this file, serving "ethereum".
let anvil: Anvil;
let clients: ReturnType<typeof anvilClients>;
let token: { address: Address; abi: Abi };
beforeAll(async () => {
  anvil = await startAnvil();
  clients = anvilClients(anvil.url);
  token = await deployTestToken(clients, 1_000_000_000_000n);
  resetRealChains();
}, 120_000);
afterAll(async () => {
  resetRealChains();
  await anvil?.stop();
});

function toMinor(text: string, decimals: number): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(decimals, "0"));
}

/** Service deps with "ethereum" served by this file's anvil (USDT being its test token), the node identified; and that network's adapter. */
async function ethereumOnAnvil() {
  const env = { RPC_ETHEREUM: anvil.url, TOKEN_ETHEREUM_USDT: token.address };
  const deps = makeTestDeps({}, env);
  await verifyChains(deps.config, deps.db);
  const adapter = getChainAdapter(deps.db, deps.config, "ethereum")!;
  return { deps, adapter };
}

/** An ETH and a USDT invoice on "ethereum", for the given USD amounts. */
async function createEthAndUsdtInvoices(deps: ApiDeps, merchant: TestMerchant, usd: { eth: string; usdt: string }) {
  const ethInvoice = (await callSigned("/v1/payment", { amount: usd.eth, currency: "USD", to_currency: "ETH", network: "ethereum" }, merchant, { deps })).body.result;
  const usdtInvoice = (await callSigned("/v1/payment", { amount: usd.usdt, currency: "USD", to_currency: "USDT", network: "ethereum" }, merchant, { deps })).body.result;
  return { ethInvoice, usdtInvoice };
}

/** Pays each invoice exactly its payer amount from anvil's funded account; returns the two transaction hashes. */
async function payEthAndUsdtInvoices(ethInvoice: { address: Address; payer_amount: string }, usdtInvoice: { address: Address; payer_amount: string }) {
  const ethHash = await clients.walletClient.sendTransaction({ to: ethInvoice.address, value: toMinor(ethInvoice.payer_amount, 18) });
  const usdtHash = await clients.walletClient.writeContract({
    address: token.address,
    abi: token.abi,
    functionName: "transfer",
    args: [usdtInvoice.address, toMinor(usdtInvoice.payer_amount, 6)],
  });
  return { ethHash, usdtHash };
}

/** The service's ethereum hot wallet, given 1 ETH from anvil's funded account to pay gas with. */
async function fundHotWallet(deps: ApiDeps) {
  const { loadKeyMaterial } = await import("@/lib/chains/key-material");
  const { deriveSigningKey, HOT_WALLET_INDEX } = await import("@/lib/chains/signing-keys");
  const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "ethereum", HOT_WALLET_INDEX, "test");
  const hash = await clients.walletClient.sendTransaction({ to: hot.address as Address, value: 10n ** 18n });
  // anvil answers before it has mined the transaction: balances read next must already include it.
  await clients.publicClient.waitForTransactionReceipt({ hash });
  return hot;
}

/** Runs four sweep passes over "ethereum", moving credited deposits into the hot wallet; returns the chain's sender. */
async function sweepEthereum(deps: ApiDeps) {
  const { getChainSender } = await import("@/lib/chains/registry");
  const { sweepNetwork } = await import("@/lib/jobs/handlers/sweep-deposits");
  const sender = getChainSender(deps.db, deps.config, "ethereum")!;
  for (let pass = 0; pass < 4; pass++) await sweepNetwork(deps, "ethereum", sender);
  return sender;
}

/** The test token's balance of `address`, in minor units. */
function tokenBalance(address: string): Promise<bigint> {
  return clients.publicClient.readContract({ address: token.address, abi: token.abi, functionName: "balanceOf", args: [address] }) as Promise<bigint>;
}

describe("invoices paid on anvil through the service", () => {
  it("credits an ETH deposit and an ERC-20 (USDT) deposit exactly once, after the required confirmations", async () => {
    const { deps, adapter } = await ethereumOnAnvil();
    expect(resolveNetworkStatus(findNetwork("ethereum")!, deps.config)).toEqual({ network: "ethereum", source: "rpc", chain: "chain id 31337" });
    await scanNetwork(deps, adapter);

    const merchant = await makeMerchant();
    const { ethInvoice, usdtInvoice } = await createEthAndUsdtInvoices(deps, merchant, { eth: "40.00", usdt: "25.00" });
    const { ethHash, usdtHash } = await payEthAndUsdtInvoices(ethInvoice, usdtInvoice);
    await scanNetwork(deps, adapter);
    const seenEth = (await callSigned("/v1/payment/info", { uuid: ethInvoice.uuid }, merchant, { deps })).body.result;
    expect(seenEth).toMatchObject({ payment_status: "confirm_check", txid: ethHash });
    expect(seenEth.confirmations).toBeGreaterThanOrEqual(1); // anvil mines each transaction in its own block
    expect(seenEth.confirmations).toBeLessThan(seenEth.required_confirmations);
    expect(seenEth.payer_address.toLowerCase()).toBe(clients.walletClient.account.address.toLowerCase());

    await clients.testClient.mine({ blocks: Math.max(ethInvoice.required_confirmations, usdtInvoice.required_confirmations) });
    await scanNetwork(deps, adapter);
    await scanNetwork(deps, adapter);
    for (const [invoice, txid] of [[ethInvoice, ethHash], [usdtInvoice, usdtHash]] as const) {
      const paid = (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result;
      expect(paid).toMatchObject({ payment_status: "paid", is_final: true, txid, amount_paid: invoice.payer_amount });
    }
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances.map((row) => row.asset).sort()).toEqual(["ETH:ethereum", "USDT:ethereum"]);
    expect(await getTestDb().chainTransfer.count({ where: { invoiceId: { in: [ethInvoice.uuid, usdtInvoice.uuid] } } })).toBe(2);
  });

  it("reflects a reorganisation that orphans a credited payment: credit reversed, invoice open again, paid again when re-sent", async () => {
    const { deps, adapter } = await ethereumOnAnvil();
    await scanNetwork(deps, adapter);
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "40.00", currency: "USD", to_currency: "ETH", network: "ethereum" }, merchant, { deps })).body.result;
    const snapshot = (await clients.testClient.snapshot()) as `0x${string}`;
    await clients.walletClient.sendTransaction({ to: invoice.address, value: toMinor(invoice.payer_amount, 18) });
    await clients.testClient.mine({ blocks: invoice.required_confirmations });
    await scanNetwork(deps, adapter);
    expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status).toBe("paid");
    expect((await listMerchantBalances(getTestDb(), merchant.merchantId)).length).toBe(1);

    // The blocks holding the payment are replaced by a longer chain without it.
    await clients.testClient.revert({ id: snapshot });
    await clients.testClient.mine({ blocks: invoice.required_confirmations + 5 });
    await scanNetwork(deps, adapter);
    const reopened = (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result;
    expect(reopened).toMatchObject({ payment_status: "check", is_final: false, amount_paid: "0" });
    expect(await listMerchantBalances(getTestDb(), merchant.merchantId)).toEqual([]);
    const transfers = await getTestDb().chainTransfer.findMany({ where: { invoiceId: invoice.uuid } });
    expect(transfers.map((transfer) => transfer.status)).toEqual(["orphaned"]);
    const { auditLedger, CLEAN_LEDGER_AUDIT } = await import("@/lib/ledger/audit");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);

    // Paying again settles it again, once.
    await clients.walletClient.sendTransaction({ to: invoice.address, value: toMinor(invoice.payer_amount, 18) });
    await clients.testClient.mine({ blocks: invoice.required_confirmations });
    await scanNetwork(deps, adapter);
    expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status).toBe("paid");
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances).toHaveLength(1);
  });

  it("sweeps credited ETH and ERC-20 deposits into the hot wallet, sending gas for the token first", async () => {
    const { deps, adapter } = await ethereumOnAnvil();
    await scanNetwork(deps, adapter);
    const merchant = await makeMerchant();
    const { ethInvoice, usdtInvoice } = await createEthAndUsdtInvoices(deps, merchant, { eth: "40.00", usdt: "25.00" });
    await payEthAndUsdtInvoices(ethInvoice, usdtInvoice);
    await clients.testClient.mine({ blocks: 70 });
    await scanNetwork(deps, adapter);

    // The hot wallet pays the token sweep's gas: fund it.
    const hot = await fundHotWallet(deps);
    const hotBefore = await clients.publicClient.getBalance({ address: hot.address as Address });
    const hotTokensBefore = await tokenBalance(hot.address);

    await sweepEthereum(deps);

    const rows = await getTestDb().outgoingTransfer.findMany({ where: { OR: [{ fromAddress: { in: [ethInvoice.address, usdtInvoice.address] } }, { toAddress: usdtInvoice.address }] } });
    expect(rows.map((row) => `${row.kind}:${row.currency}:${row.status}`).sort()).toEqual(["gas:ETH:confirmed", "sweep:ETH:confirmed", "sweep:USDT:confirmed"]);
    expect(await tokenBalance(usdtInvoice.address)).toBe(0n);
    // Every USDT sweep of this pass (this invoice's, and the earlier test's paid invoice's) arrived, exactly.
    const usdtSweeps = await getTestDb().outgoingTransfer.findMany({ where: { network: "ethereum", kind: "sweep", currency: "USDT", status: "confirmed" } });
    expect(usdtSweeps.some((row) => row.fromAddress === usdtInvoice.address)).toBe(true);
    expect((await tokenBalance(hot.address)) - hotTokensBefore).toBe(usdtSweeps.reduce((sum, row) => sum + BigInt(row.amountMinor.toFixed()), 0n));
    const ethSweep = rows.find((row) => row.kind === "sweep" && row.currency === "ETH")!;
    const gas = rows.find((row) => row.kind === "gas")!;
    const hotAfter = await clients.publicClient.getBalance({ address: hot.address as Address });
    // The hot wallet gained the ETH sweeps and paid out the gas transfers (and their own fees).
    const allRows = await getTestDb().outgoingTransfer.findMany({ where: { network: "ethereum", status: "confirmed" } });
    const ethIn = allRows.filter((row) => row.kind === "sweep" && row.currency === "ETH").reduce((sum, row) => sum + BigInt(row.amountMinor.toFixed()), 0n);
    const gasOut = allRows.filter((row) => row.kind === "gas").reduce((sum, row) => sum + BigInt(row.amountMinor.toFixed()), 0n);
    const gasFees = allRows.filter((row) => row.kind === "gas").reduce((sum, row) => sum + BigInt(row.feeMinor!.toFixed()), 0n);
    expect(ethSweep.status).toBe("confirmed");
    expect(gas.status).toBe("confirmed");
    expect(hotAfter - hotBefore).toBeLessThanOrEqual(ethIn - gasOut);
    expect(hotAfter - hotBefore).toBeGreaterThanOrEqual(ethIn - gasOut - gasFees);
    const { auditLedger, CLEAN_LEDGER_AUDIT } = await import("@/lib/ledger/audit");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
    expect(await getTestDb().ledgerJournal.count({ where: { reference: { in: allRows.map((row) => `outgoing:${row.id}:fee`) } } })).toBe(allRows.length);
  });

  it("pays out ETH and an ERC-20 from the hot wallet: the recipient gets exactly what the payout says, payout.confirmed says paid", async () => {
    const { deps, adapter } = await ethereumOnAnvil();
    await scanNetwork(deps, adapter);
    const merchant = await makeMerchant();
    await callSigned("/v1/webhooks", { url: "http://127.0.0.1:9/hook" }, merchant, { deps });
    const { ethInvoice, usdtInvoice } = await createEthAndUsdtInvoices(deps, merchant, { eth: "80.00", usdt: "50.00" });
    await payEthAndUsdtInvoices(ethInvoice, usdtInvoice);
    await clients.testClient.mine({ blocks: 70 });
    await scanNetwork(deps, adapter);

    // The deposits reach the hot wallet (which needs some ETH of its own for the token sweep's gas).
    const { sendPayouts } = await import("@/lib/jobs/handlers/send-payouts");
    await fundHotWallet(deps);
    const sender = await sweepEthereum(deps);

    const recipient = "0x000000000000000000000000000000000000bEEF" as Address;
    const ethBefore = await clients.publicClient.getBalance({ address: recipient });
    const tokensBefore = await tokenBalance(recipient);
    const ethPayout = (await callSigned("/v1/payout", { amount: "0.001", currency: "ETH", network: "ethereum", address: recipient, order_id: "anvil-eth", is_subtract: true }, merchant, { deps })).body.result;
    const usdtPayout = (await callSigned("/v1/payout", { amount: "7.5", currency: "USDT", network: "ethereum", address: recipient, order_id: "anvil-usdt" }, merchant, { deps })).body.result;
    expect(ethPayout).toMatchObject({ status: "process", receive_amount: "0.001" });
    expect(usdtPayout).toMatchObject({ status: "process", amount: "7.5" });
    // Each pass sends and follows; ethereum's min_confirmations (12) are mined between passes.
    for (let pass = 0; pass < 3; pass++) {
      await sendPayouts(deps, "ethereum", sender);
      await clients.testClient.mine({ blocks: 12 });
    }

    for (const payout of [ethPayout, usdtPayout]) {
      const info = (await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant, { deps })).body.result;
      expect(info).toMatchObject({ internal_status: "confirmed", status: "paid", is_final: true });
      const receipt = await clients.publicClient.getTransactionReceipt({ hash: info.txid });
      expect(receipt.status).toBe("success");
      const confirmed = await getTestDb().webhookDelivery.findFirstOrThrow({ where: { objectId: payout.uuid, eventType: "payout.confirmed", target: "endpoint" } });
      expect(JSON.parse(confirmed.body)).toMatchObject({ type: "payout", uuid: payout.uuid, status: "paid", is_final: true, txid: info.txid });
    }
    expect((await clients.publicClient.getBalance({ address: recipient })) - ethBefore).toBe(toMinor(ethPayout.receive_amount, 18));
    expect((await tokenBalance(recipient)) - tokensBefore).toBe(toMinor(usdtPayout.receive_amount, 6));
    const { auditLedger, CLEAN_LEDGER_AUDIT } = await import("@/lib/ledger/audit");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("pays an invoice paid on a fresh node before the watcher's first pass, with blocks mined quickly after", async () => {
    // A second, fresh anvil serving "optimism", as a new operator would point RPC_OPTIMISM at one.
    const fresh = await startAnvil();
    try {
      const freshClients = anvilClients(fresh.url);
      const env = { RPC_OPTIMISM: fresh.url };
      const deps = makeTestDeps({}, env);
      await getTestDb().chainCursor.deleteMany({ where: { network: "optimism" } });
      await verifyChains(deps.config, deps.db);
      await freshClients.testClient.mine({ blocks: 5 });
      const merchant = await makeMerchant();
      const invoice = (await callSigned("/v1/payment", { amount: "40.00", currency: "USD", to_currency: "ETH", network: "optimism" }, merchant, { deps })).body.result;
      await freshClients.walletClient.sendTransaction({ to: invoice.address, value: toMinor(invoice.payer_amount, 18) });
      await freshClients.testClient.mine({ blocks: invoice.required_confirmations + 20 });
      // The watcher's first pass comes only now, long after the payment's block.
      await scanNetwork(deps, getChainAdapter(deps.db, deps.config, "optimism")!);
      expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result).toMatchObject({ payment_status: "paid", amount_paid: invoice.payer_amount });
    } finally {
      resetRealChains();
      await fresh.stop();
    }
  });
});
