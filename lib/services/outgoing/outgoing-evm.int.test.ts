import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "viem";
import { getChainAdapter, getChainSender } from "@/lib/chains/registry";
import { resetRealChains } from "@/lib/chains/real-chains";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { anvilClients, startAnvil, type Anvil } from "@/lib/chains/evm/testing/anvil";
import { startRpcProxy, type ProxyAction } from "@/lib/chains/testing/rpc-proxy";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { sweepNetwork } from "@/lib/jobs/handlers/sweep-deposits";
import { parseAmount } from "@/lib/domain/money/amount";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { spawnSweepWorker } from "@/lib/testing/spawn-worker";

// Outgoing transfers on a real EVM node (anvil serving "arbitrum", which no other suite uses):
// a worker killed between signing and broadcasting, a broadcast whose answer is lost, and two
// worker processes sweeping at once.

let anvil: Anvil;
let clients: ReturnType<typeof anvilClients>;
beforeAll(async () => {
  anvil = await startAnvil();
  clients = anvilClients(anvil.url);
  resetRealChains();
}, 120_000);
afterAll(async () => {
  resetRealChains();
  await anvil?.stop();
});


/** ETH invoices on arbitrum, paid and credited through the watcher. */
async function paidInvoices(count: number, rpcUrl = anvil.url) {
  const env = { RPC_ARBITRUM: rpcUrl };
  const deps = makeTestDeps({}, env);
  await verifyChains(deps.config, deps.db);
  const merchant = await makeMerchant();
  const invoices = [];
  for (let i = 0; i < count; i++) {
    const invoice = (await callSigned("/v1/payment", { amount: "40.00", currency: "USD", to_currency: "ETH", network: "arbitrum" }, merchant, { deps })).body.result;
    await clients.walletClient.sendTransaction({ to: invoice.address, value: parseAmount(invoice.payer_amount, 18)! });
    invoices.push(invoice as { uuid: string; address: Address; payer_amount: string; required_confirmations: number });
  }
  await clients.testClient.mine({ blocks: invoices[0].required_confirmations + 1 });
  await scanNetwork(deps, getChainAdapter(deps.db, deps.config, "arbitrum")!);
  for (const invoice of invoices) {
    expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status).toBe("paid");
  }
  return { deps, invoices };
}

const nonceOf = (address: Address) => clients.publicClient.getTransactionCount({ address, blockTag: "latest" });

async function sweepsOf(addresses: string[]) {
  return getTestDb().outgoingTransfer.findMany({ where: { network: "arbitrum", fromAddress: { in: addresses } }, orderBy: { createdAt: "asc" } });
}

describe("outgoing transfers on anvil", () => {
  it("broadcasts the stored bytes once after a worker is killed between signing and broadcasting", async () => {
    const { deps, invoices } = await paidInvoices(1);
    const [invoice] = invoices;
    // The worker's node never answers a broadcast: it is killed while waiting for one.
    const proxy = await startRpcProxy(anvil.url, (method): ProxyAction => (method === "eth_sendRawTransaction" ? { kind: "hang" } : { kind: "forward" }));
    try {
      const worker = spawnSweepWorker("arbitrum", 1, { RPC_ARBITRUM: proxy.url });
      let signed = null;
      for (let i = 0; i < 600 && !signed; i++) {
        const [row] = await sweepsOf([invoice.address]);
        if (row?.status === "signed") signed = row;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(signed, "the worker signed and stored the sweep").not.toBeNull();
      // The broadcast follows the commit of the signed bytes: wait until the node was asked.
      for (let i = 0; i < 100 && !proxy.methods.includes("eth_sendRawTransaction"); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(proxy.methods).toContain("eth_sendRawTransaction");
      worker.child.kill("SIGKILL");
      expect((await worker.exited).signal).toBe("SIGKILL");
      expect(await nonceOf(invoice.address)).toBe(0);

      // The next worker, once the dead one's lease has lapsed, sends what was stored.
      const sender = getChainSender(deps.db, deps.config, "arbitrum")!;
      const later = { ...deps, now: () => new Date(Date.now() + 61_000) };
      await sweepNetwork(later, "arbitrum", sender);
      await sweepNetwork(later, "arbitrum", sender);
      const [sweep] = await sweepsOf([invoice.address]);
      expect(sweep).toMatchObject({ status: "confirmed", txid: signed!.txid, rawTransaction: signed!.rawTransaction, attempts: 1 });
      expect(await nonceOf(invoice.address)).toBe(1);
      expect(await getTestDb().ledgerJournal.count({ where: { reference: `outgoing:${sweep.id}:fee` } })).toBe(1);
      const receipt = await clients.publicClient.getTransactionReceipt({ hash: sweep.txid as `0x${string}` });
      expect(BigInt(sweep.feeMinor!.toFixed())).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    } finally {
      await proxy.stop();
    }
  });

  it("never spends a second nonce when a broadcast gets no answer", async () => {
    const { invoices } = await paidInvoices(1);
    const [invoice] = invoices;
    let action: ProxyAction = { kind: "drop" };
    const proxy = await startRpcProxy(anvil.url, (method) => (method === "eth_sendRawTransaction" ? action : { kind: "forward" }));
    try {
      const env = { RPC_ARBITRUM: proxy.url };
      const deps = makeTestDeps({}, env);
      await verifyChains(deps.config, deps.db);
      const sender = getChainSender(deps.db, deps.config, "arbitrum")!;
      await sweepNetwork(deps, "arbitrum", sender);
      await sweepNetwork(deps, "arbitrum", sender);
      const [waiting] = await sweepsOf([invoice.address]);
      expect(waiting).toMatchObject({ status: "signed", attempts: 1 });
      expect(waiting.broadcasts).toBeGreaterThanOrEqual(2);
      expect(await nonceOf(invoice.address)).toBe(0);

      // The node takes it but the answer is lost: the sender finds it by its hash.
      action = { kind: "forward-then-drop" };
      await sweepNetwork(deps, "arbitrum", sender);
      await sweepNetwork(deps, "arbitrum", sender);
      const [sweep] = await sweepsOf([invoice.address]);
      expect(sweep).toMatchObject({ status: "confirmed", txid: waiting.txid, attempts: 1 });
      expect(await nonceOf(invoice.address)).toBe(1);
      expect(await sweepsOf([invoice.address])).toHaveLength(1);
    } finally {
      await proxy.stop();
      resetRealChains();
    }
  });

  it("lets two worker processes sweep at once without a conflict: each deposit moves once, nonces never collide", async () => {
    const { invoices } = await paidInvoices(4);
    const { loadKeyMaterial } = await import("@/lib/chains/key-material");
    const { deriveSigningKey, HOT_WALLET_INDEX } = await import("@/lib/chains/signing-keys");
    const deps = makeTestDeps();
    const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "arbitrum", HOT_WALLET_INDEX, "test").address as Address;
    const hotBefore = await clients.publicClient.getBalance({ address: hot });
    const addresses = invoices.map((invoice) => invoice.address);

    const workers = [spawnSweepWorker("arbitrum", 3, { RPC_ARBITRUM: anvil.url }), spawnSweepWorker("arbitrum", 3, { RPC_ARBITRUM: anvil.url })];
    const outcomes = await Promise.all(workers.map((worker) => worker.exited));
    for (const outcome of outcomes) expect(outcome.code, outcome.stderr).toBe(0);
    // Between them the two workers sent each sweep once.
    const sentByWorkers = outcomes.flatMap((outcome) => (JSON.parse(outcome.stdout) as { results: { sent: number }[] }).results.map((result) => result.sent));
    expect(sentByWorkers.reduce((sum, sent) => sum + sent, 0)).toBe(4);

    const sweeps = await sweepsOf(addresses);
    expect(sweeps.map((sweep) => sweep.status)).toEqual(Array(4).fill("confirmed"));
    expect(new Set(sweeps.map((sweep) => sweep.fromAddress)).size).toBe(4);
    for (const address of addresses) expect(await nonceOf(address)).toBe(1);
    const moved = sweeps.reduce((sum, sweep) => sum + BigInt(sweep.amountMinor.toFixed()), 0n);
    expect((await clients.publicClient.getBalance({ address: hot })) - hotBefore).toBe(moved);
    expect(await getTestDb().ledgerJournal.count({ where: { reference: { in: sweeps.map((sweep) => `outgoing:${sweep.id}:fee`) } } })).toBe(4);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
