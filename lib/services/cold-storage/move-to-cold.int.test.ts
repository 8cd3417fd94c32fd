import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiDeps, type ApiDeps } from "@/lib/api/deps";
import { issueApiKey } from "@/lib/auth/api-keys";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { getChainSender } from "@/lib/chains/registry";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { formatAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { assetKey, PLATFORM } from "@/lib/ledger/postings";
import { runCli } from "@/lib/cli/testing/cli-process";
import { listWalletStatus } from "@/lib/cli/wallets/wallet-status";
import { readTableState } from "@/lib/metrics/read-table-state";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { sweepNetwork } from "@/lib/jobs/handlers/sweep-deposits";
import { callSigned, makeTestConfig, TEST_MASTER_KEY, type TestMerchant } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { moveExcessToCold } from "@/lib/jobs/handlers/move-to-cold";
import type { ColdStorageDeps } from "./move-to-cold";

// Hot wallet limits on tron's sandbox chain, on a database of this file's own (a pass is
// network-wide: other files' hot wallet money must not count here): USDT paid in and swept to the
// hot wallet, a payout queued against it, then the excess over the maximum moved to the cold
// address once however many planners race — the payout's reserve left behind, the books
// balanced, the audit and the reconciliation against the chain clean.

const COLD_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const PAYOUT_ADDRESS = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
const USDT = 1_000_000n;

const ownDatabase = useOwnDatabasePerFile("cold");
let deps: ApiDeps;
let merchant: TestMerchant;

function withLimit(env: Record<string, string>): ColdStorageDeps {
  return { ...deps, config: makeTestConfig({ DATABASE_URL: ownDatabase().url, ...env }) };
}

const call = (path: string, body: Record<string, unknown>) => callSigned(path, body, merchant, { deps });
const mine = (blocks = 25) => call("/v1/sandbox/mine", { network: "tron", blocks });
const coldTransfers = () => ownDatabase().db.outgoingTransfer.findMany({ where: { kind: "cold" }, orderBy: { createdAt: "asc" } });

async function platformBalance(bucket: string): Promise<bigint> {
  const account = await ownDatabase().db.ledgerAccount.findUnique({ where: { owner_asset_bucket: { owner: PLATFORM, asset: assetKey("USDT", "tron"), bucket } } });
  return account ? BigInt(account.balance.toFixed()) : 0n;
}

beforeAll(async () => {
  deps = createApiDeps(makeTestConfig({ DATABASE_URL: ownDatabase().url }), ownDatabase().db, createSecretBox(Buffer.from(TEST_MASTER_KEY, "hex")));
  const merchantId = randomUUID();
  await ownDatabase().db.merchant.create({ data: { id: merchantId, name: "Cold storage" } });
  const key = await issueApiKey(ownDatabase().db, deps.secretBox, merchantId, "unified");
  merchant = { merchantId, publicId: key.publicId, secret: key.secret };
});

describe("hot wallet limits", () => {
  it("moves the excess over the maximum to the cold address once, leaves queued payouts' reserves, and books it", { timeout: 120_000 }, async () => {
    const sender = getChainSender(ownDatabase().db, deps.config, "tron")!;
    const hot = hotWalletAddress(await loadKeyMaterial(ownDatabase().db, deps.secretBox), "tron", "main");
    const limited = withLimit({ HOT_WALLET_MAX_TRON_USDT: "1000", COLD_ADDRESS_TRON: COLD_ADDRESS });

    // An empty hot wallet is within any limit: nothing moves, the check is kept.
    const empty = await moveExcessToCold(limited, { timeoutMs: 5_000 });
    expect(empty).toMatchObject([{ network: "tron", currency: "USDT", excess: 0n, transfer: null, isPlanned: false, note: "" }]);

    const invoice = (await call("/v1/payment", { amount: "3000.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "cold-1" })).body.result;
    await call("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount });
    await mine();
    for (let pass = 0; pass < 3; pass++) {
      await sweepNetwork(deps, "tron", sender);
      await mine();
    }
    const held = await sender.getBalance(hot, "USDT");
    expect(held).toBeGreaterThan(2_900n * USDT);
    // A payout queued against the hot wallet (approved, not sent yet): its reserve stays.
    const payout = (await call("/v1/payout", { amount: "500", currency: "USDT", network: "tron", address: PAYOUT_ADDRESS, order_id: "cold-payout" })).body.result;
    expect(payout.internal_status).toBe("approved");
    const reserved = 500n * USDT;

    // Below the maximum nothing happens.
    const roomy = await moveExcessToCold(withLimit({ HOT_WALLET_MAX_TRON_USDT: "1000000", COLD_ADDRESS_TRON: COLD_ADDRESS }), { timeoutMs: 5_000 });
    expect(roomy).toMatchObject([{ excess: 0n, transfer: null, isPlanned: false, reserved, ledgerHeld: held, chainHeld: held }]);
    // A dry run says what would move and moves nothing.
    const dry = await moveExcessToCold(limited, { timeoutMs: 5_000, isDryRun: true });
    expect(dry).toMatchObject([{ excess: held - reserved - 1000n * USDT, transfer: null, isPlanned: false }]);
    expect(await coldTransfers()).toEqual([]);

    // Planners racing: one transfer of the excess, every pass answering it.
    const passes = await Promise.all(Array.from({ length: 6 }, () => moveExcessToCold(limited, { timeoutMs: 5_000 })));
    const transfers = await coldTransfers();
    expect(transfers).toHaveLength(1);
    const excess = held - reserved - 1000n * USDT;
    expect(transfers[0]).toMatchObject({ kind: "cold", reference: "cold:tron:USDT:0", currency: "USDT", fromAddress: hot, toAddress: COLD_ADDRESS });
    expect(BigInt(transfers[0].amountMinor.toFixed())).toBe(excess);
    expect(passes.flat().filter((check) => check.isPlanned)).toHaveLength(1);
    for (const check of passes.flat()) expect(check.transfer?.id).toBe(transfers[0].id);
    expect(["broadcast", "seen"]).toContain(transfers[0].status);

    // On its way: reconciled clean (it may have landed), counted for /metrics.
    expect((await reconcileWithChains(deps, { network: "tron", timeoutMs: 5_000, payoutDays: 7, now: new Date() })).filter(hasDrift)).toEqual([]);
    const state = await readTableState(ownDatabase().db, new Date(), null);
    expect(state.coldTransfers.filter((row) => row.asset === "USDT:tron" && row.status !== "confirmed").reduce((sum, row) => sum + row.count, 0)).toBe(1);

    // `wallets status` shows the limit and the move on its way.
    const status = (await listWalletStatus({ db: ownDatabase().db, config: limited.config as ApiDeps["config"], secretBox: deps.secretBox }, { isAll: false, timeoutMs: 5_000 })).find((row) => row.network === "tron" && row.currency === "USDT")!;
    expect(status.limit).toMatchObject({ max: "1000", excess: "0", cold_transfer: { reference: "cold:tron:USDT:0", amount: formatAmount(excess, 6) } });
    expect(status.cold_storage).toBe("0");

    await mine();
    const [settled] = await moveExcessToCold(limited, { timeoutMs: 5_000 });
    expect(settled).toMatchObject({ excess: 0n, isPlanned: false, transfer: null });
    expect((await coldTransfers()).map((transfer) => transfer.status)).toEqual(["confirmed"]);
    expect(await sender.getBalance(COLD_ADDRESS, "USDT")).toBe(excess);
    expect(await sender.getBalance(hot, "USDT")).toBe(reserved + 1000n * USDT);
    // Booked once: chain → cold, in the transaction that confirmed it.
    expect(await ownDatabase().db.ledgerJournal.count({ where: { reference: `outgoing:${transfers[0].id}:cold` } })).toBe(1);
    expect(await platformBalance("cold")).toBe(-excess);
    const after = (await listWalletStatus({ db: ownDatabase().db, config: limited.config as ApiDeps["config"], secretBox: deps.secretBox }, { isAll: false, timeoutMs: 5_000 })).find((row) => row.network === "tron" && row.currency === "USDT")!;
    expect(after).toMatchObject({ cold_storage: formatAmount(excess, 6), limit: { max: "1000", excess: "0", cold_transfer: null } });
    expect(await readTableState(ownDatabase().db, new Date(), null)).toMatchObject({
      coldTransfers: [{ network: "tron", asset: "USDT:tron", status: "confirmed", count: 1 }],
      hotWalletLimits: [{ network: "tron", asset: "USDT:tron", max: 1000, excess: 0 }],
    });
    expect(await auditLedger(ownDatabase().db)).toEqual(CLEAN_LEDGER_AUDIT);
    expect((await reconcileWithChains(deps, { network: "tron", timeoutMs: 5_000, payoutDays: 7, now: new Date() })).filter(hasDrift)).toEqual([]);
    expect(await ownDatabase().db.hotWalletLimitCheck.findUniqueOrThrow({ where: { network_currency: { network: "tron", currency: "USDT" } } })).toMatchObject({ transferId: null, note: "" });

    // Again: at the maximum plus the reserve, nothing more leaves.
    await moveExcessToCold(limited, { timeoutMs: 5_000 });
    expect(await coldTransfers()).toHaveLength(1);

    // The queued payout is paid from what stayed.
    for (let pass = 0; pass < 3; pass++) {
      await sendPayouts(deps, "tron", sender);
      await mine();
    }
    expect((await call("/v1/payout/info", { uuid: payout.uuid })).body.result.internal_status).toBe("confirmed");
    expect(await auditLedger(ownDatabase().db)).toEqual(CLEAN_LEDGER_AUDIT);
    expect((await reconcileWithChains(deps, { network: "tron", timeoutMs: 5_000, payoutDays: 7, now: new Date() })).filter(hasDrift)).toEqual([]);
  });

  it("runs as the operator's command: a table or one JSON object, and a usage error without a limit", { timeout: 60_000 }, async () => {
    const env = { DATABASE_URL: ownDatabase().url, HOT_WALLET_MAX_TRON_USDT: "1500", COLD_ADDRESS_TRON: COLD_ADDRESS };
    const [asJson, asTable] = await Promise.all([runCli(["wallets", "to-cold", "--json"], env), runCli(["wallets", "to-cold", "--dry-run"], env)]);
    expect(asJson.status).toBe(0);
    expect(asJson.json.items).toMatchObject([{ network: "tron", currency: "USDT", max: "1500", excess: "0", cold_address: COLD_ADDRESS, transfer: null, planned: false, note: "" }]);
    expect(asTable.status).toBe(0);
    expect(asTable.stdout).toMatch(/^NETWORK\s+ASSET\s+MAX\s+HOT \(BOOKS\)\s+HOT \(CHAIN\)\s+RESERVED\s+EXCESS\s+TO COLD/);
    const without = await runCli(["wallets", "to-cold", "--json"], { DATABASE_URL: ownDatabase().url });
    expect(without.status).toBe(1);
    expect(without.json.error.code).toBe("cli.usage");
  });

  it("refuses a cold address that is the hot wallet, a deposit address, or not the network's", async () => {
    const hot = hotWalletAddress(await loadKeyMaterial(ownDatabase().db, deps.secretBox), "tron", "main");
    const deposit = (await ownDatabase().db.invoice.findFirstOrThrow({ where: { network: "tron", address: { not: null } } })).address!;
    for (const [address, note] of [
      [hot, "the cold address is the hot wallet itself"],
      [deposit, "the cold address belongs to this service (its hot wallet or a deposit address)"],
      ["0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "the cold address is an address of another network or chain than tron (main)"],
      ["TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeX", "the cold address is not a valid tron address"],
    ]) {
      const [check] = await moveExcessToCold(withLimit({ HOT_WALLET_MAX_TRON_USDT: "0", COLD_ADDRESS_TRON: address }), { timeoutMs: 5_000 });
      expect(check).toMatchObject({ note, transfer: null, isPlanned: false });
    }
    expect(await coldTransfers()).toHaveLength(1);
  });
});
