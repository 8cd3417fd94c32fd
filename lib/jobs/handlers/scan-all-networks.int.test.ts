import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiDeps, type ApiDeps } from "@/lib/api/deps";
import { issueApiKey } from "@/lib/auth/api-keys";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { mineSandboxBlocks, randomSandboxPayerAddress, submitSandboxTransaction } from "@/lib/chains/sandbox/sandbox-chain";
import { parseAmount } from "@/lib/domain/money/amount";
import { callSigned, makeTestConfig, TEST_MASTER_KEY, type TestMerchant } from "@/lib/testing/harness";
import { createOwnDatabase, type OwnDatabase } from "@/lib/testing/own-database";
import { scanAllNetworks, type WatcherDeps } from "@/lib/jobs/handlers/scan-networks";

// The watcher job over every sandbox network of a database of this file's own, so that no other
// test's transfers keep a network busy: what it skips on a chain that did not move, and what it
// must not skip.

let own: OwnDatabase;
let deps: ApiDeps;
let merchant: TestMerchant;
// The watcher's clock runs ahead of the API's (the real one), which creates the invoices.
let nowMs = Date.now();
let watcher: WatcherDeps;

beforeAll(async () => {
  own = await createOwnDatabase("scan_all_networks");
  deps = createApiDeps(makeTestConfig({ DATABASE_URL: own.url }), own.db, createSecretBox(Buffer.from(TEST_MASTER_KEY, "hex")));
  watcher = { db: own.db, config: deps.config, now: () => new Date(nowMs) };
  const merchantId = randomUUID();
  await own.db.merchant.create({ data: { id: merchantId, name: "Watcher" } });
  const key = await issueApiKey(own.db, deps.secretBox, merchantId, "unified");
  merchant = { merchantId, publicId: key.publicId, secret: key.secret };
});

afterAll(async () => {
  await own?.close();
});

async function newInvoice(network: string, lifetime = 3600) {
  const response = await callSigned("/v1/payment", { amount: "25.00", currency: "USD", to_currency: "USDT", network, lifetime }, merchant, { deps });
  expect(response.status).toBe(200);
  return response.body.result as { uuid: string; address: string; payer_amount: string };
}

/** A payment put in the mempool without telling any watcher (the sandbox API would scan at once). */
async function payQuietly(network: "tron" | "bsc", invoice: { address: string; payer_amount: string }): Promise<string> {
  return submitSandboxTransaction(own.db, {
    network,
    currency: "USDT",
    fromAddress: randomSandboxPayerAddress(network),
    toAddress: invoice.address,
    amountMinor: parseAmount(invoice.payer_amount, network === "bsc" ? 18 : 6)!,
    now: new Date(nowMs),
  });
}

async function pass() {
  nowMs += 2_000;
  return scanAllNetworks(watcher);
}

describe("the watcher job over every network", () => {
  it("asks a chain that did not move only for its tip and new transfers, and still renews its cursor's time", async () => {
    const first = await pass();
    expect(first.networks).toBeGreaterThan(10);
    expect(first.unchanged).toEqual([]);
    const second = await pass();
    expect(second.unchanged).toHaveLength(second.networks);
    const cursors = await own.db.chainCursor.findMany();
    expect(cursors).toHaveLength(second.networks);
    for (const cursor of cursors) expect(cursor.updatedAt.getTime()).toBe(nowMs);
  });

  it("records a payment sent to an unchanged chain's mempool, confirms it when blocks come, then leaves the chain alone again", async () => {
    await pass();
    const invoice = await newInvoice("tron");
    const txid = await payQuietly("tron", invoice);
    expect((await pass()).unchanged).not.toContain("tron");
    expect(await own.db.chainTransfer.findFirstOrThrow({ where: { txid } })).toMatchObject({ status: "seen", blockHeight: null });

    await mineSandboxBlocks(own.db, "tron", 30, new Date(nowMs));
    expect((await pass()).unchanged).not.toContain("tron");
    expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status).toBe("paid");
    expect(await own.db.chainTransfer.findFirstOrThrow({ where: { txid } })).toMatchObject({ status: "confirmed", confirmations: 30 });
    expect((await pass()).unchanged).toContain("tron");
  });

  it("still notices a transaction dropped from the mempool while the chain does not move", async () => {
    await pass();
    const invoice = await newInvoice("bsc", 900);
    const txid = await payQuietly("bsc", invoice);
    await pass();
    const recorded = await own.db.chainTransfer.findFirstOrThrow({ where: { txid } });
    expect(recorded).toMatchObject({ status: "seen", blockHeight: null });

    // Evicted from the mempool; no block comes. The transfer waits, so every pass looks at it …
    await own.db.sandboxTransaction.deleteMany({ where: { txid } });
    expect((await pass()).unchanged).not.toContain("bsc");
    expect(await own.db.chainTransfer.findUniqueOrThrow({ where: { id: recorded.id } })).toMatchObject({ status: "seen" });
    // … the one past the deadline orphans it; the open invoice it paid is still looked at every pass …
    nowMs += 11 * 60_000;
    await pass();
    expect(await own.db.chainTransfer.findUniqueOrThrow({ where: { id: recorded.id } })).toMatchObject({ status: "orphaned" });
    expect((await pass()).unchanged).not.toContain("bsc");
    // … until it expires; then the chain is left alone.
    nowMs += 5 * 60_000;
    await pass();
    expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status).toBe("cancel");
    expect((await pass()).unchanged).toContain("bsc");
  });

  it("reads everything again after a block of the cursor's height is replaced (a reorganisation at the tip)", async () => {
    await pass();
    const invoice = await newInvoice("tron");
    const txid = await payQuietly("tron", invoice);
    const tipHeight = await mineSandboxBlocks(own.db, "tron", 1, new Date(nowMs));
    await pass();
    expect(await own.db.chainTransfer.findFirstOrThrow({ where: { txid } })).toMatchObject({ blockHeight: tipHeight, status: "seen" });
    await pass();

    // Another block takes the tip's place: same height, another hash, the transaction not in it.
    await own.db.sandboxBlock.update({ where: { network_height: { network: "tron", height: tipHeight } }, data: { hash: "ab".repeat(32) } });
    await own.db.sandboxTransaction.update({ where: { txid }, data: { blockHeight: null } });
    expect((await pass()).unchanged).not.toContain("tron");
    expect(await own.db.chainTransfer.findFirstOrThrow({ where: { txid } })).toMatchObject({ blockHeight: null });
  });
});
