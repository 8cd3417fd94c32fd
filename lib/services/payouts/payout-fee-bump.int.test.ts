import { describe, expect, it } from "vitest";
import type { Address, Hash } from "viem";
import { anvilClients } from "@/lib/chains/evm/testing/anvil";
import { useAnvilPerFile } from "@/lib/chains/evm/testing/anvil-per-file";
import { getChainSender } from "@/lib/chains/registry";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { makeMerchantFundedOnAnvil } from "@/lib/testing/funding";
import { createApiDeps } from "@/lib/api/deps";
import { callSigned, getTestSecretBox, makeTestConfig } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { runCli } from "@/lib/cli/testing/cli-process";
import { readTableState } from "@/lib/metrics/read-table-state";
import { findPayoutDetail } from "@/lib/services/payouts/find-payout-detail";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// A payout on anvil ("bsc") on a database of its own signed at the fee of a quiet moment, then
// the base fee jumps and stays high: the transaction waits unmined, and a second payout signed
// after it (the next nonce) waits behind it. After GATEWAY_REPLACE_AFTER_SECONDS worth of blocks
// the stuck one is signed again with the same nonce and a fee the market takes; both are mined,
// each paid once, and the books agree with the chain.

const node = useAnvilPerFile();
// Payout passes send every approved payout of their network: other files' must not be among them.
const database = useOwnDatabasePerFile("payout_fee_bump");

const RECIPIENTS = ["0x00000000000000000000000000000000000b0b01", "0x00000000000000000000000000000000000b0b02"] as const;

describe("a payout stuck unmined behind a base fee that rose", () => {
  it("is replaced with the same nonce and a higher fee, mined once, and the payout after it flows", { timeout: 180_000 }, async () => {
    const clients = anvilClients(node().url);
    // bsc's 0.45 s blocks: two seconds are five blocks.
    const env = { RPC_BSC: node().url, GATEWAY_REPLACE_AFTER_SECONDS: "2" };
    const deps = createApiDeps(makeTestConfig({ ...env, DATABASE_URL: database().url }), database().db, getTestSecretBox());
    await verifyChains(deps.config, deps.db);
    const { merchant, hot } = await makeMerchantFundedOnAnvil(deps, clients, { network: "bsc", usd: "100.00" });
    const sender = getChainSender(deps.db, deps.config, "bsc")!;
    const nonceBefore = await clients.publicClient.getTransactionCount({ address: hot, blockTag: "latest" });
    const pay = async (address: Address, orderId: string) => {
      const created = await callSigned("/v1/payout", { amount: "0.01", currency: "BNB", network: "bsc", address, order_id: orderId, is_subtract: true }, merchant, { deps });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      return created.body.result as { uuid: string; receive_amount: string };
    };
    /** A block at a base fee far above what the first payout was signed for. */
    const mineExpensive = async (blocks: number) => {
      for (let block = 0; block < blocks; block++) {
        const latest = await clients.publicClient.getBlock();
        await clients.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: (latest.baseFeePerGas ?? 1n) < 100_000_000_000n ? 100_000_000_000n : latest.baseFeePerGas! });
        await clients.testClient.mine({ blocks: 1 });
      }
    };

    await clients.testClient.setAutomine(false);
    try {
      const first = await pay(RECIPIENTS[0], "bump-1");
      await sendPayouts(deps, "bsc", sender);
      const [stuck] = await database().db.outgoingTransfer.findMany({ where: { network: "bsc", kind: "payout" } });
      expect(stuck).toMatchObject({ status: "seen", nonce: nonceBefore }); // in the mempool
      const stuckTxid = stuck.txid!;

      // The base fee jumps; the transaction is not included. A second payout is signed behind it.
      await mineExpensive(2);
      const second = await pay(RECIPIENTS[1], "bump-2");
      await sendPayouts(deps, "bsc", sender);
      expect(await clients.publicClient.getTransactionReceipt({ hash: stuckTxid as Hash }).catch(() => null)).toBeNull();
      const waiting = await database().db.outgoingTransfer.findMany({ where: { network: "bsc", kind: "payout" }, orderBy: { nonce: "asc" } });
      expect(waiting.map((row) => [row.nonce, row.status, row.replacements])).toEqual([
        [nonceBefore, expect.stringMatching(/^(broadcast|seen)$/), 0],
        [nonceBefore + 1, expect.stringMatching(/^(broadcast|seen)$/), 0],
      ]);

      // Five blocks later it is stuck: signed again, same nonce, higher fees, the old txid kept.
      await mineExpensive(5);
      await sendPayouts(deps, "bsc", sender);
      const [replaced] = await database().db.outgoingTransfer.findMany({ where: { network: "bsc", kind: "payout", nonce: nonceBefore } });
      expect(replaced.replacements).toBe(1);
      expect(replaced.txid).not.toBe(stuckTxid);
      expect(JSON.parse(replaced.consumes!)).toMatchObject({ nonce: nonceBefore, supersedes: [stuckTxid] });
      expect(BigInt(replaced.feeMinor!.toFixed())).toBeGreaterThan(BigInt(stuck.feeMinor!.toFixed()));
      // The operator sees it: in the CLI's listing, in /metrics, and in the payout's timeline.
      const listed = await runCli(["transfers", "list", "--network", "bsc", "--replaced", "--json"], { DATABASE_URL: database().url });
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.json.items).toEqual([expect.objectContaining({ reference: replaced.reference, replacements: 1, replaced_txids: [stuckTxid], txid: replaced.txid })]);
      expect((await readTableState(database().db, new Date(), null)).replacedInFlight).toContainEqual({ network: "bsc", kind: "payout", count: 1 });
      const timeline = (await findPayoutDetail(deps, merchant.merchantId, first.uuid))!.timeline;
      expect(timeline.find((event) => event.kind === "transfer")).toMatchObject({ txid: replaced.txid, replacedTxids: [stuckTxid] });

      for (let pass = 0; pass < 6; pass++) {
        await mineExpensive(5);
        await sendPayouts(deps, "bsc", sender);
      }
      for (const [index, payout] of [first, second].entries()) {
        const info = (await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant, { deps })).body.result;
        expect(info).toMatchObject({ internal_status: "confirmed", status: "paid" });
        expect(await clients.publicClient.getBalance({ address: RECIPIENTS[index] })).toBe(parseAmount(payout.receive_amount, 18));
      }
      // One transaction per payout: the replacement of the first, the second as signed.
      expect(await clients.publicClient.getTransactionCount({ address: hot, blockTag: "latest" })).toBe(nonceBefore + 2);
      const [paidFirst] = await database().db.outgoingTransfer.findMany({ where: { network: "bsc", kind: "payout", nonce: nonceBefore } });
      const receipt = await clients.publicClient.getTransactionReceipt({ hash: paidFirst.txid as Hash });
      expect(paidFirst.txid).toBe(replaced.txid);
      expect(BigInt(paidFirst.feeMinor!.toFixed())).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
      expect((await callSigned("/v1/payout/info", { uuid: first.uuid }, merchant, { deps })).body.result.txid).toBe(replaced.txid);
      expect(await auditLedger(database().db)).toEqual(CLEAN_LEDGER_AUDIT);
      const [reconciled] = (await reconcileWithChains(deps, { network: "bsc", timeoutMs: 5_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "BNB");
      expect(reconciled).toMatchObject({ shortfall: 0n, unprovenPayouts: [] });
      expect(hasDrift(reconciled)).toBe(false);
    } finally {
      await clients.testClient.setAutomine(true);
    }
  });
});
