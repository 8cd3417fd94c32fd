import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { getChainAdapter, getChainSender } from "@/lib/chains/registry";
import { resetRealChains } from "@/lib/chains/real-chains";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import { startLitecoind, type RegtestNode } from "@/lib/chains/utxo/testing/litecoind";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { readTableState } from "@/lib/metrics/read-table-state";
import { createApiDeps } from "@/lib/api/deps";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { callSigned, getTestSecretBox, makeMerchant, makeTestConfig } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// A payout on litecoind -regtest whose transaction the miner leaves out (a fee market that rose):
// after GATEWAY_REPLACE_AFTER_SECONDS of blocks it is replaced by fee (BIP125) over the same
// coins, mined, paid once, its fee booked as charged, and the books reconciled with the chain.

let node: RegtestNode;
beforeAll(async () => {
  node = await startLitecoind(["-mempoolreplacement=1"]);
  resetRealChains();
}, 120_000);
afterAll(async () => {
  resetRealChains();
  await node?.stop();
});
// Payout passes send every approved payout of their network: other files' must not be among them.
const database = useOwnDatabasePerFile("payout_rbf_litecoind");

const mempool = () => node.rpc.call("getrawmempool", [], z.array(z.string()));

describe("a litecoin payout stuck unmined", () => {
  it("is replaced by fee over the same coins, mined once, and reconciled", { timeout: 180_000 }, async () => {
    // Litecoin's blocks are 150 s apart: 300 s is two blocks.
    const env = { RPC_LITECOIN: node.rpcUrl, GATEWAY_REPLACE_AFTER_SECONDS: "300" };
    const deps = createApiDeps(makeTestConfig({ ...env, DATABASE_URL: database().url }), database().db, getTestSecretBox());
    await verifyChains(deps.config, deps.db);
    const adapter = getChainAdapter(deps.db, deps.config, "litecoin")!;
    const sender = getChainSender(deps.db, deps.config, "litecoin")!;
    await scanNetwork(deps, adapter);

    // The merchant's balance from a paid invoice; the hot wallet's coins from outside the books.
    const merchant = await makeMerchant({ deps });
    const invoice = (await callSigned("/v1/payment", { amount: "80.00", currency: "USD", to_currency: "LTC" }, merchant, { deps })).body.result;
    await node.rpc.call("sendtoaddress", [invoice.address, invoice.payer_amount], z.string());
    await node.mine(invoice.required_confirmations);
    await scanNetwork(deps, adapter);
    expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status).toBe("paid");
    const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "litecoin", HOT_WALLET_INDEX, "regtest").address;
    await node.rpc.call("sendtoaddress", [hot, "1"], z.string());
    await node.mine(1);

    const recipient = await node.rpc.call("getnewaddress", ["", "bech32"], z.string());
    const created = await callSigned("/v1/payout", { amount: "0.05", currency: "LTC", address: recipient, order_id: "rbf-1", is_subtract: true }, merchant, { deps });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const uuid = created.body.result.uuid as string;
    await sendPayouts(deps, "litecoin", sender);
    const [first] = await deps.db.outgoingTransfer.findMany({ where: { network: "litecoin", kind: "payout" } });
    expect(await mempool()).toContain(first.txid);

    // The miner leaves it out, block after block.
    await node.rpc.call("prioritisetransaction", [first.txid, 0, -100_000_000], z.boolean());
    await node.mine(1);
    await sendPayouts(deps, "litecoin", sender);
    expect((await deps.db.outgoingTransfer.findUniqueOrThrow({ where: { id: first.id } })).replacements).toBe(0); // one block: not stuck yet
    await node.mine(1);
    await sendPayouts(deps, "litecoin", sender);

    const replaced = await deps.db.outgoingTransfer.findUniqueOrThrow({ where: { id: first.id } });
    expect(replaced.replacements).toBe(1);
    expect(replaced.txid).not.toBe(first.txid);
    expect(JSON.parse(replaced.consumes!)).toMatchObject({ outpoints: JSON.parse(first.consumes!).outpoints, supersedes: [first.txid] });
    expect(await mempool()).toEqual([replaced.txid]);
    // The operator sees it on its way, and since when.
    const { unminedInFlight, replacedInFlight } = await readTableState(deps.db, new Date(), null);
    expect(unminedInFlight).toEqual([{ network: "litecoin", kind: "payout", count: 1, oldest: first.createdAt }]);
    expect(replacedInFlight).toEqual([{ network: "litecoin", kind: "payout", count: 1 }]);
    const charged = (await node.rpc.call("getmempoolentry", [replaced.txid], z.object({ fees: z.object({ base: z.union([z.number(), z.string()]) }) }))).fees.base;
    expect(BigInt(replaced.feeMinor!.toFixed())).toBe(parseAmount(String(charged), 8));

    // Mined and final (litecoin wants three confirmations): paid once, by the replacement.
    await node.mine(3);
    await sendPayouts(deps, "litecoin", sender);
    const info = (await callSigned("/v1/payout/info", { uuid }, merchant, { deps })).body.result;
    expect(info).toMatchObject({ internal_status: "confirmed", status: "paid", txid: replaced.txid });
    const received = await node.rpc.call("scantxoutset", ["start", [`addr(${recipient})`]], z.object({ total_amount: z.union([z.number(), z.string()]) }));
    expect(parseAmount(String(received.total_amount), 8)).toBe(parseAmount("0.05", 8));
    expect(await deps.db.outgoingTransfer.count({ where: { network: "litecoin", kind: "payout" } })).toBe(1);

    expect(await auditLedger(deps.db)).toEqual(CLEAN_LEDGER_AUDIT);
    const [reconciled] = (await reconcileWithChains(deps, { network: "litecoin", timeoutMs: 30_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "LTC");
    expect(reconciled).toMatchObject({ shortfall: 0n, unprovenPayouts: [], landedDeadTransfers: [], uncheckedTransactions: 0 });
    expect(hasDrift(reconciled)).toBe(false);
    // Booked with another amount than the replacement delivered: unproven.
    await deps.db.outgoingTransfer.update({ where: { id: first.id }, data: { amountMinor: "5000001" } });
    const [misdelivered] = (await reconcileWithChains(deps, { network: "litecoin", timeoutMs: 30_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "LTC");
    expect(misdelivered.unprovenPayouts).toEqual([uuid]);
  });
});
