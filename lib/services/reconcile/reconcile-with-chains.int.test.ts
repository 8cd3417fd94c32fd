import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiDeps, type ApiDeps } from "@/lib/api/deps";
import { issueApiKey } from "@/lib/auth/api-keys";
import { getChainSender } from "@/lib/chains/registry";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { postJournal } from "@/lib/ledger/post";
import { assetKey, PLATFORM } from "@/lib/ledger/postings";
import { withTransaction } from "@/lib/db/transaction";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { sweepNetwork } from "@/lib/jobs/handlers/sweep-deposits";
import { callSigned, makeTestConfig, TEST_MASTER_KEY, type TestMerchant } from "@/lib/testing/harness";
import { createOwnDatabase, type OwnDatabase } from "@/lib/testing/own-database";
import { runCli } from "@/lib/cli/testing/cli-process";
import { readTableState } from "@/lib/metrics/read-table-state";
import { listWalletStatus } from "@/lib/cli/wallets/wallet-status";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";

// The books against the chains, on a database of this file's own (a network-wide check must not
// see other files' work in flight): money in, swept, paid out — reconciled clean; then a phantom
// journal the audit cannot see, and a payout booked as paid that the chain does not know, each
// found; the operator's command exits 1 on them.

let own: OwnDatabase;
let deps: ApiDeps;
let merchant: TestMerchant;

beforeAll(async () => {
  own = await createOwnDatabase("reconcile");
  deps = createApiDeps(makeTestConfig({ DATABASE_URL: own.url }), own.db, createSecretBox(Buffer.from(TEST_MASTER_KEY, "hex")));
  const merchantId = randomUUID();
  await own.db.merchant.create({ data: { id: merchantId, name: "Reconciled" } });
  const key = await issueApiKey(own.db, deps.secretBox, merchantId, "unified");
  merchant = { merchantId, publicId: key.publicId, secret: key.secret };
});

afterAll(async () => {
  await own?.close();
});

const call = (path: string, body: Record<string, unknown>) => callSigned(path, body, merchant, { deps });
const reconcile = () => reconcileWithChains(deps, { network: "tron", timeoutMs: 5_000, payoutDays: 7, now: new Date() });

/** `gateway ledger reconcile` as the operator runs it, on this file's database (which this process may serve). */
function runReconcileCommand() {
  return runCli(["ledger", "reconcile", "--network", "tron", "--json"], { DATABASE_URL: own.url });
}

describe("reconciliation against the chains", () => {
  it("is clean after money in, a sweep and a payout; finds a phantom journal and a payout the chain does not know", { timeout: 120_000 }, async () => {
    const invoice = (await call("/v1/payment", { amount: "300.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "reconcile-1" })).body.result;
    await call("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount });
    await call("/v1/sandbox/mine", { network: "tron", blocks: 25 });
    expect((await call("/v1/payment/info", { uuid: invoice.uuid })).body.result.payment_status).toBe("paid");

    const sender = getChainSender(own.db, deps.config, "tron")!;
    for (let pass = 0; pass < 4; pass++) {
      await sweepNetwork(deps, "tron", sender);
      await call("/v1/sandbox/mine", { network: "tron", blocks: 25 });
    }
    const payout = (await call("/v1/payout", { amount: "100", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: "reconcile-payout" })).body.result;
    for (let pass = 0; pass < 4; pass++) {
      await sendPayouts(deps, "tron", sender);
      await call("/v1/sandbox/mine", { network: "tron", blocks: 25 });
    }
    expect((await call("/v1/payout/info", { uuid: payout.uuid })).body.result).toMatchObject({ internal_status: "confirmed" });
    // A second deposit still confirming: on chain, not booked yet.
    const other = (await call("/v1/payment", { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "reconcile-2" })).body.result;
    await call("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: other.address, amount: other.payer_amount });
    await call("/v1/sandbox/mine", { network: "tron", blocks: 1 });
    expect(await auditLedger(own.db)).toEqual(CLEAN_LEDGER_AUDIT);

    const clean = await reconcile();
    const usdt = clean.find((row) => row.currency === "USDT")!;
    expect(usdt).toMatchObject({ shortfall: 0n, surplus: 0n, unprovenPayouts: [], uncheckedTransactions: 0, note: "" });
    expect(usdt.chain).toBe(usdt.ledger + usdt.unbookedIn);
    expect(usdt.unbookedIn).toBeGreaterThan(0n);
    expect(clean.filter(hasDrift)).toEqual([]);
    const command = await runReconcileCommand();
    expect(command.status).toBe(0);
    expect(command.json.clean).toBe(true);
    expect(await own.db.chainReconciliation.findMany({ where: { network: "tron", isDrift: true } })).toEqual([]);

    // A phantom 5 USDT of fee income taken from the chain account: balanced, so the audit is clean.
    await withTransaction(own.db, (tx) =>
      postJournal(
        tx,
        {
          reference: `phantom:${randomUUID()}`,
          kind: "phantom",
          postings: [
            { account: { owner: PLATFORM, asset: assetKey("USDT", "tron"), bucket: "chain" }, amount: -5_000_000n },
            { account: { owner: PLATFORM, asset: assetKey("USDT", "tron"), bucket: "fees" }, amount: 5_000_000n },
          ],
        },
        new Date(),
      ),
    );
    expect(await auditLedger(own.db)).toEqual(CLEAN_LEDGER_AUDIT);
    const phantom = (await reconcile()).find((row) => row.currency === "USDT")!;
    expect(phantom.shortfall).toBe(5_000_000n);
    expect(hasDrift(phantom)).toBe(true);

    // The payout's transfer recorded with another recipient, then another amount: the chain's
    // transaction did not deliver that.
    const payoutTransfer = { reference: { startsWith: `payout:${payout.uuid}:` } };
    const [recorded] = await own.db.outgoingTransfer.findMany({ where: payoutTransfer });
    await own.db.outgoingTransfer.updateMany({ where: payoutTransfer, data: { toAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" } });
    expect((await reconcile()).find((row) => row.currency === "USDT")!.unprovenPayouts).toEqual([payout.uuid]);
    await own.db.outgoingTransfer.updateMany({ where: payoutTransfer, data: { toAddress: recorded.toAddress, amountMinor: (BigInt(recorded.amountMinor.toFixed()) + 1n).toString() } });
    expect((await reconcile()).find((row) => row.currency === "USDT")!.unprovenPayouts).toEqual([payout.uuid]);
    await own.db.outgoingTransfer.updateMany({ where: payoutTransfer, data: { amountMinor: recorded.amountMinor } });

    // The payout's mined transaction recorded also under an earlier attempt booked as dead
    // (replaced): the chain shows it landed, so the payout was paid twice.
    const deadAttempt = `payout:${payout.uuid}:send:0`;
    await own.db.outgoingTransfer.create({ data: { ...recorded, id: randomUUID(), reference: deadAttempt, status: "replaced", nonce: null, seqno: null, isReleased: true } });
    const paidTwice = (await reconcile()).find((row) => row.currency === "USDT")!;
    expect(paidTwice).toMatchObject({ landedDeadTransfers: [deadAttempt], unprovenPayouts: [] });
    expect(hasDrift(paidTwice)).toBe(true);
    const deadCommand = await runReconcileCommand();
    expect(deadCommand.json.items.find((item: { currency: string }) => item.currency === "USDT")).toMatchObject({ landed_dead_transfers: [deadAttempt], drift: true });
    expect(await own.db.chainReconciliation.findUnique({ where: { network_currency: { network: "tron", currency: "USDT" } } })).toMatchObject({ isDrift: true, landedDeadTransfers: 1 });
    // The same attempt with a transaction the chain never saw: dead indeed, not drift.
    await own.db.outgoingTransfer.update({ where: { reference: deadAttempt }, data: { txid: "cd".repeat(32) } });
    expect((await reconcile()).find((row) => row.currency === "USDT")!.landedDeadTransfers).toEqual([]);

    // The payout's transfer pointed at a transaction the chain never saw.
    await own.db.outgoingTransfer.updateMany({ where: { reference: { startsWith: `payout:${payout.uuid}:` } }, data: { txid: "ab".repeat(32) } });
    const unproven = (await reconcile()).find((row) => row.currency === "USDT")!;
    expect(unproven.unprovenPayouts).toEqual([payout.uuid]);

    const failing = await runReconcileCommand();
    expect(failing.status).toBe(1);
    expect(failing.json.clean).toBe(false);
    expect(failing.json.items.find((item: { currency: string }) => item.currency === "USDT")).toMatchObject({ shortfall: "5", unproven_payouts: [payout.uuid], drift: true });
    expect(await own.db.chainReconciliation.findUnique({ where: { network_currency: { network: "tron", currency: "USDT" } } })).toMatchObject({ isDrift: true, unprovenPayouts: 1 });
    // What /metrics shows from it.
    const gauges = (await readTableState(own.db, new Date(), null)).reconciliations.find((row) => row.asset === "USDT:tron");
    expect(gauges).toMatchObject({ network: "tron", isDrift: true, shortfall: 5, surplus: 0, unprovenPayouts: 1 });
    // What `wallets status` shows from it.
    const status = await listWalletStatus({ db: own.db, config: deps.config, secretBox: deps.secretBox }, { isAll: false, timeoutMs: 5_000 });
    expect(status.find((row) => row.network === "tron" && row.currency === "USDT")?.reconciliation).toMatchObject({ drift: true, shortfall: "5", unproven_payouts: 1 });
  });
});
