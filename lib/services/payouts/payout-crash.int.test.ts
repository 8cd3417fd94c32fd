import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { anvilClients } from "@/lib/chains/evm/testing/anvil";
import { useAnvilPerFile } from "@/lib/chains/evm/testing/anvil-per-file";
import { getChainSender } from "@/lib/chains/registry";
import { parseAmount } from "@/lib/domain/money/amount";
import { processPendingBatches } from "@/lib/jobs/handlers/process-batches";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { makeMerchantFundedOnAnvil } from "@/lib/testing/funding";
import { callSigned, getTestDb, makeTestDeps } from "@/lib/testing/harness";
import { spawnPayoutWorker } from "@/lib/testing/spawn-worker";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// A worker process killed in the middle of a 500-payout batch on anvil ("base"): another worker
// finishes the batch and the sending, and every payout reaches its recipient exactly once.

const node = useAnvilPerFile();

const COUNT = 500;
const EACH = "0.0001";
const recipient = (index: number) => `0x${(0x10000 + index).toString(16).padStart(40, "0")}` as Address;

describe("a payout batch on anvil whose worker is killed", () => {
  it("sends every payout exactly once on chain", { timeout: 300_000 }, async () => {
    const env = { RPC_BASE: node().url };
    const deps = makeTestDeps({}, env);
    await verifyChains(deps.config, deps.db);
    const clients = anvilClients(node().url);
    // The merchant's ETH comes from a paid invoice; the hot wallet holds the coins on chain.
    const { merchant, hot } = await makeMerchantFundedOnAnvil(deps, clients, { network: "base", usd: "400.00" });

    const payouts = Array.from({ length: COUNT }, (_, index) => ({ amount: EACH, currency: "ETH", network: "base", address: recipient(index), order_id: `crash-${index}`, is_subtract: true }));
    const created = await callSigned("/v1/payout/batch", { payouts }, merchant, { deps });
    expect(created.status).toBe(200);

    // A worker process takes the batch and starts sending; it is killed half-way.
    const worker = spawnPayoutWorker("base", env);
    const sentSoFar = () => getTestDb().outgoingTransfer.count({ where: { network: "base", kind: "payout", status: { in: ["broadcast", "seen", "confirmed"] } } });
    for (let i = 0; i < 1200 && (await sentSoFar()) < COUNT / 5; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    worker.child.kill("SIGKILL");
    const exit = await worker.exited;
    expect(exit.signal, exit.stderr).toBe("SIGKILL");
    const atKill = await sentSoFar();
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(COUNT);

    // Another worker, once the dead one's leases have lapsed, finishes the batch and the sending.
    const later = { ...deps, now: () => new Date(Date.now() + 61_000) };
    const sender = getChainSender(later.db, later.config, "base")!;
    while (await processPendingBatches(later));
    for (let pass = 0; pass < 20; pass++) {
      await sendPayouts(later, "base", sender);
      await clients.testClient.mine({ blocks: 10 }); // base's min_confirmations
      const open = await getTestDb().payout.count({ where: { merchantId: merchant.merchantId, status: { not: "confirmed" } } });
      if (open === 0) break;
    }
    const info = (await callSigned("/v1/batch/info", { batch_id: created.body.result.batch_id, limit: 1 }, merchant, { deps })).body.result;
    expect(info).toMatchObject({ status: "completed", succeeded: COUNT, failed: 0 });
    const rows = await getTestDb().payout.findMany({ where: { merchantId: merchant.merchantId } });
    expect(rows).toHaveLength(COUNT);
    expect(rows.every((row) => row.status === "confirmed")).toBe(true);

    // On chain: each recipient holds exactly one payout, and the hot wallet sent exactly COUNT transactions.
    const each = parseAmount(EACH, 18)!;
    const balances = await Promise.all(payouts.map((payout) => clients.publicClient.getBalance({ address: payout.address })));
    expect(balances.filter((balance) => balance !== each)).toEqual([]);
    const sent = await getTestDb().outgoingTransfer.findMany({ where: { network: "base", kind: "payout", status: "confirmed" } });
    expect(sent).toHaveLength(COUNT);
    expect(await clients.publicClient.getTransactionCount({ address: hot, blockTag: "latest" })).toBe(COUNT);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
    // And with the chain: nothing short, every paid payout's transaction there.
    const [reconciled] = (await reconcileWithChains(later, { network: "base", timeoutMs: 5_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "ETH");
    expect(reconciled).toMatchObject({ shortfall: 0n, unprovenPayouts: [], landedDeadTransfers: [], uncheckedTransactions: 0 });
  });
});
