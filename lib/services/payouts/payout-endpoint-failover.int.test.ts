import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { anvilClients } from "@/lib/chains/evm/testing/anvil";
import { useAnvilPerFile } from "@/lib/chains/evm/testing/anvil-per-file";
import { getChainSender } from "@/lib/chains/registry";
import { listRpcEndpointPools, resetRealChains } from "@/lib/chains/real-chains";
import { startRpcProxy, type ProxyAction } from "@/lib/chains/testing/rpc-proxy";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { createGatewayMetrics } from "@/lib/metrics/registry";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { makeMerchantFundedOnAnvil } from "@/lib/testing/funding";
import { createApiDeps } from "@/lib/api/deps";
import { callSigned, getTestSecretBox, makeTestConfig } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// "optimism" reached through two endpoints (two proxies in front of one anvil). The first takes
// the payout's transaction and loses the answer, then stops answering at all: the broadcast is not
// repeated on another backend within the call (its refusal could be a lagging node's), the payout
// is followed through the second, found, paid once, and /metrics shows the first down.

const node = useAnvilPerFile();
const database = useOwnDatabasePerFile("payout_endpoint_failover");

describe("a payout on a network with two RPC endpoints, the first failing mid-way", () => {
  it("is sent once through the second and confirmed; the failing endpoint shows in /metrics", { timeout: 180_000 }, async () => {
    const clients = anvilClients(node().url);
    let firstMode: "healthy" | "loses-broadcast" | "down" = "healthy";
    const first = await startRpcProxy(node().url, (method): ProxyAction => {
      if (firstMode === "down") return { kind: "drop" };
      if (firstMode === "loses-broadcast" && method === "eth_sendRawTransaction") {
        firstMode = "down";
        return { kind: "forward-then-drop" };
      }
      return { kind: "forward" };
    });
    const second = await startRpcProxy(node().url, () => ({ kind: "forward" }));
    try {
      const env = { RPC_OPTIMISM: `${first.url}, ${second.url}` };
      const deps = createApiDeps(makeTestConfig({ ...env, DATABASE_URL: database().url }), database().db, getTestSecretBox());
      await verifyChains(deps.config, deps.db);
      // Verification asks each endpoint on its own which chain it serves; nothing else goes to the second while the first answers.
      expect(second.methods).toEqual(["eth_chainId"]);
      second.methods.length = 0;
      const { merchant, hot } = await makeMerchantFundedOnAnvil(deps, clients, { network: "optimism", usd: "100.00" });
      const nonceBefore = await clients.publicClient.getTransactionCount({ address: hot, blockTag: "latest" });
      expect(second.methods).toHaveLength(0);

      const recipient = "0x00000000000000000000000000000000000fa11b" as Address;
      const created = await callSigned("/v1/payout", { amount: "0.01", currency: "ETH", network: "optimism", address: recipient, order_id: "failover-1", is_subtract: true }, merchant, { deps });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const amount = parseAmount(created.body.result.receive_amount, 18)!;

      firstMode = "loses-broadcast";
      const sender = getChainSender(deps.db, deps.config, "optimism")!;
      for (let pass = 0; pass < 4; pass++) {
        await sendPayouts(deps, "optimism", sender);
        await clients.testClient.mine({ blocks: 12 });
      }

      // The first endpoint took the bytes; the second found them: one nonce, one payment.
      expect(first.methods).toContain("eth_sendRawTransaction");
      expect(second.methods).toContain("eth_getTransactionReceipt");
      expect(second.methods).not.toContain("eth_sendRawTransaction");
      const info = (await callSigned("/v1/payout/info", { uuid: created.body.result.uuid }, merchant, { deps })).body.result;
      expect(info).toMatchObject({ internal_status: "confirmed", status: "paid" });
      expect(await database().db.outgoingTransfer.count({ where: { network: "optimism", kind: "payout" } })).toBe(1);
      expect(await clients.publicClient.getBalance({ address: recipient })).toBe(amount);
      expect(await clients.publicClient.getTransactionCount({ address: hot, blockTag: "latest" })).toBe(nonceBefore + 1);

      const [pool] = listRpcEndpointPools().filter((candidate) => candidate.network === "optimism");
      const [firstHealth, secondHealth] = pool.health();
      expect(firstHealth.failures).toBeGreaterThan(0);
      expect(secondHealth).toMatchObject({ failures: 0, isUp: true });
      const exposition = await createGatewayMetrics().registry.metrics();
      const firstLabel = `network="optimism",endpoint="${firstHealth.label}"`;
      expect(exposition).toContain(`gateway_rpc_endpoint_requests_total{${firstLabel},outcome="failed"} ${firstHealth.failures}`);
      expect(exposition).toMatch(new RegExp(`gateway_rpc_endpoint_up\\{network="optimism",endpoint="${secondHealth.label}"\\} 1`));
      expect(exposition).not.toContain(first.url);

      expect(await auditLedger(database().db)).toEqual(CLEAN_LEDGER_AUDIT);
      const [reconciled] = (await reconcileWithChains(deps, { network: "optimism", timeoutMs: 5_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "ETH");
      expect(reconciled).toMatchObject({ shortfall: 0n, unprovenPayouts: [], landedDeadTransfers: [], uncheckedTransactions: 0 });
      expect(hasDrift(reconciled)).toBe(false);
      // Recorded as paid elsewhere than the chain's transaction paid: unproven.
      await database().db.outgoingTransfer.updateMany({ where: { network: "optimism", kind: "payout" }, data: { toAddress: "0x00000000000000000000000000000000000fa11c" } });
      const [misdelivered] = (await reconcileWithChains(deps, { network: "optimism", timeoutMs: 5_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "ETH");
      expect(misdelivered.unprovenPayouts).toEqual([created.body.result.uuid]);
    } finally {
      await first.stop();
      await second.stop();
      resetRealChains();
    }
  });
});
