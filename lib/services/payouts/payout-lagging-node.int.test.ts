import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { anvilClients } from "@/lib/chains/evm/testing/anvil";
import { useAnvilPerFile } from "@/lib/chains/evm/testing/anvil-per-file";
import { getChainSender } from "@/lib/chains/registry";
import { resetRealChains } from "@/lib/chains/real-chains";
import { startRpcProxy, type ProxyAction } from "@/lib/chains/testing/rpc-proxy";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { makeMerchantFundedOnAnvil } from "@/lib/testing/funding";
import { createApiDeps } from "@/lib/api/deps";
import { callSigned, getTestSecretBox, makeTestConfig } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { spawnPayoutWorker } from "@/lib/testing/spawn-worker";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// A payout on anvil ("polygon") on a database of its own whose worker dies after the node took
// its transaction and before the answer was recorded; the next worker reaches the chain through
// a load balancer whose backend lags: it answers "nonce too low" to the broadcast and knows no
// transaction by its hash. The payout must be paid once: one nonce, one payment.

const node = useAnvilPerFile();
// Payout passes send every approved payout of their network: other files' must not be among them.
const database = useOwnDatabasePerFile("payout_lagging_node");

describe("a payout whose worker died after the node took it, followed behind a lagging node", () => {
  it("is paid once: the refusal and the empty lookups prove nothing, the block that used the nonce does", { timeout: 180_000 }, async () => {
    const clients = anvilClients(node().url);
    let mode: "crash" | "lagging" | "healthy" = "crash";
    const proxy = await startRpcProxy(node().url, (method): ProxyAction => {
      if (mode === "crash" && method === "eth_sendRawTransaction") return { kind: "forward-then-hang" };
      if (mode === "lagging") {
        if (method === "eth_sendRawTransaction") return { kind: "error", code: -32000, message: "nonce too low" };
        if (method === "eth_getTransactionByHash" || method === "eth_getTransactionReceipt") return { kind: "answer", result: null };
      }
      return { kind: "forward" };
    });
    try {
      const env = { RPC_POLYGON: proxy.url };
      const deps = createApiDeps(makeTestConfig({ ...env, DATABASE_URL: database().url }), database().db, getTestSecretBox());
      await verifyChains(deps.config, deps.db);
      const { merchant, hot } = await makeMerchantFundedOnAnvil(deps, clients, { network: "polygon", usd: "100.00" });
      const nonceBefore = await clients.publicClient.getTransactionCount({ address: hot, blockTag: "latest" });

      const recipient = "0x00000000000000000000000000000000000a11ce" as Address;
      const created = await callSigned("/v1/payout", { amount: "0.5", currency: "POL", network: "polygon", address: recipient, order_id: "lagging-1", is_subtract: true }, merchant, { deps });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const amount = parseAmount(created.body.result.receive_amount, 18)!;

      // A worker process signs and broadcasts; the node takes the transaction; the worker dies waiting for the answer.
      const worker = spawnPayoutWorker("polygon", { ...env, DATABASE_URL: database().url });
      const pending = () => clients.publicClient.getTransactionCount({ address: hot, blockTag: "pending" });
      await expect.poll(pending, { timeout: 60_000, interval: 100 }).toBe(nonceBefore + 1);
      worker.child.kill("SIGKILL");
      expect((await worker.exited).signal).toBe("SIGKILL");
      const [stored] = await database().db.outgoingTransfer.findMany({ where: { network: "polygon", kind: "payout" } });
      expect(stored).toMatchObject({ status: "signed", nonce: nonceBefore });

      // The transaction is mined, deep. The next worker (its lease lapsed) sees the chain through a lagging backend.
      await clients.testClient.mine({ blocks: 30 });
      mode = "lagging";
      const later = { ...deps, now: () => new Date(Date.now() + 61_000) };
      const sender = getChainSender(later.db, later.config, "polygon")!;
      for (let pass = 0; pass < 3; pass++) await sendPayouts(later, "polygon", sender);
      // Nothing was signed anew: one transfer, its nonce held, no second payment.
      const whileLagging = await database().db.outgoingTransfer.findMany({ where: { network: "polygon", kind: "payout" } });
      expect(whileLagging).toHaveLength(1);
      expect(whileLagging[0]).toMatchObject({ status: "signed", isReleased: false });
      expect(await pending()).toBe(nonceBefore + 1);

      // The backend catches up: the payout is found, confirmed and paid once.
      mode = "healthy";
      for (let pass = 0; pass < 5; pass++) {
        await sendPayouts(later, "polygon", sender);
        await clients.testClient.mine({ blocks: 12 });
      }
      const info = (await callSigned("/v1/payout/info", { uuid: created.body.result.uuid }, merchant, { deps })).body.result;
      expect(info).toMatchObject({ internal_status: "confirmed", status: "paid", txid: stored.txid });
      expect(await database().db.outgoingTransfer.count({ where: { network: "polygon", kind: "payout" } })).toBe(1);
      expect(await clients.publicClient.getBalance({ address: recipient })).toBe(amount);
      expect(await clients.publicClient.getTransactionCount({ address: hot, blockTag: "latest" })).toBe(nonceBefore + 1);
      expect(await auditLedger(database().db)).toEqual(CLEAN_LEDGER_AUDIT);
      // The books agree with the chain: nothing short, the payout's transaction there (the hot
      // wallet's funding from outside the books is a surplus, not drift).
      const [reconciled] = (await reconcileWithChains(later, { network: "polygon", timeoutMs: 5_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "POL");
      expect(reconciled).toMatchObject({ shortfall: 0n, unprovenPayouts: [], landedDeadTransfers: [], uncheckedTransactions: 0 });
      expect(hasDrift(reconciled)).toBe(false);
    } finally {
      await proxy.stop();
      resetRealChains();
    }
  });
});
