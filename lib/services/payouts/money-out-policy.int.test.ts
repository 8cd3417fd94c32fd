import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createApiDeps, type ApiDeps } from "@/lib/api/deps";
import { issueApiKey } from "@/lib/auth/api-keys";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { callApi, callSigned, getTestSecretBox, makeTestConfig, type TestMerchant } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { releaseDueSplitShares } from "@/lib/jobs/handlers/release-split-shares";
import { payOutAutoWithdrawals } from "@/lib/jobs/handlers/pay-out-auto-withdrawals";
import { approveWaitedPayouts } from "@/lib/jobs/handlers/approve-waited-payouts";
import { WAITED_APPROVER } from "./manage-payouts";
import { setMoneyOutThreshold } from "./money-out-thresholds";
import { runUnit } from "@/lib/deps/unit-of-work";

// Every kind of money out through the one writer and its policy, on a database of this file's own
// (the jobs it runs are store-wide): a freeze refuses what a person asks for and holds what the
// service makes, but never a refund to the address that paid; thresholds hold money out for a
// second person — a different person, not another key of the same one — or, with nobody else,
// a waiting period; a changed destination freezes money out.

const database = useOwnDatabasePerFile("money_out_policy");
const FOREIGN = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const HOUR = 3_600_000;

function depsWith(env: Record<string, string> = {}, now?: () => Date): ApiDeps {
  const deps = createApiDeps(makeTestConfig({ DATABASE_URL: database().url, ...env }), database().db, getTestSecretBox());
  return now ? { ...deps, now } : deps;
}

/** A store with the people named (each enrolled, with a key of their own); the first key is the operator's. */
async function makeStore(deps: ApiDeps, people: ("owner" | "admin" | "finance" | "viewer")[] = []) {
  const { db } = deps;
  const merchantId = randomUUID();
  await db.merchant.create({ data: { id: merchantId, name: `Policy ${merchantId.slice(0, 8)}` } });
  const key = async (owner?: string): Promise<TestMerchant> => {
    const issued = await issueApiKey(db, deps.secretBox, merchantId, "unified", owner);
    return { merchantId, publicId: issued.publicId, secret: issued.secret };
  };
  const operator = await key();
  const members = [];
  for (const role of people) {
    const id = randomUUID();
    await db.cabinetUser.create({ data: { id, merchantId, email: `${role}-${id.slice(0, 8)}@example.com`, passwordHash: "unused", role, totpSecretCiphertext: "unused", totpEnabledAt: new Date() } });
    members.push({ id, role, key: await key(`user:${id}`), otherKey: await key(`user:${id}`) });
  }
  return { merchantId, operator, members };
}

async function pay(deps: ApiDeps, merchant: TestMerchant, usd: string) {
  const call = (path: string, body: unknown) => callSigned(path, body, merchant, { deps });
  const invoice = (await call("/v1/payment", { amount: usd, currency: "USD", to_currency: "USDT", network: "tron", order_id: `paid-${randomUUID()}` })).body.result;
  await call("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount });
  await call("/v1/sandbox/mine", { network: "tron", blocks: 25 });
  return (await call("/v1/payment/info", { uuid: invoice.uuid })).body.result as { uuid: string; payer_address: string };
}

async function blockedWalletWithDeposit(deps: ApiDeps, merchant: TestMerchant) {
  const call = (path: string, body: unknown) => callSigned(path, body, merchant, { deps });
  const wallet = (await call("/v1/wallet", { currency: "USDT", network: "tron", order_id: `held-${randomUUID()}` })).body.result;
  await call("/v1/wallet/block", { uuid: wallet.uuid });
  await call("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: wallet.address, amount: "12" });
  await call("/v1/sandbox/mine", { network: "tron", blocks: 25 });
  const deposit = await deps.db.chainTransfer.findFirstOrThrow({ where: { toAddress: wallet.address } });
  return { uuid: wallet.uuid as string, payer: deposit.fromAddress };
}

async function createLink(deps: ApiDeps, merchant: TestMerchant, amount: string) {
  const response = await callSigned("/v1/payout/link", { currency: "USDT", network: "tron", amount }, merchant, { deps });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result as { link_id: string; claim_token: string };
}

async function claim(deps: ApiDeps, token: string) {
  const response = await callApi(new Request(`http://gateway.test/v1/claim/${token}`, { method: "POST", body: JSON.stringify({ address: FOREIGN }) }), { deps });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return deps.db.payout.findFirstOrThrow({ where: { orderId: `payoutlink:${(await deps.db.payoutLink.findFirstOrThrow({ where: { payoutId: response.body.result.payout_id } })).id}` } });
}

describe("the money-out policy, every kind of money out", () => {
  it("during a freeze refuses what a person asks for, holds what the service makes until it lifts, and never holds a refund to the payer", { timeout: 120_000 }, async () => {
    const plain = depsWith();
    const store = await makeStore(plain);
    const merchant = store.operator;
    // Everything that will ask for money out is set up before the freeze counts.
    const paid = await pay(plain, merchant, "300.00");
    const wallet = await blockedWalletWithDeposit(plain, merchant);
    const link = await createLink(plain, merchant, "10");
    expect((await callSigned("/v1/split/rule", { percent: 10, address: FOREIGN, network: "tron" }, merchant, { deps: plain })).status).toBe(200);
    expect((await callSigned("/v1/split/config/set", { refund_hold_hours: 0 }, merchant, { deps: plain })).status).toBe(200);
    expect((await callSigned("/v1/auto-withdraw/set", { currency: "USDT", network: "tron", address: FOREIGN, min: "1" }, merchant, { deps: plain })).status).toBe(200);
    await pay(plain, merchant, "50.00"); // its split share and its auto-withdrawal

    // The store's key is an hour old at most: with a one-day freeze, money out is frozen.
    const frozen = depsWith({ GATEWAY_PAYOUT_FREEZE_SECONDS: "86400" });
    const call = (path: string, body: unknown) => callSigned(path, body, merchant, { deps: frozen });
    const refusals = {
      api_payout: await call("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: FOREIGN, order_id: "frozen-payout" }),
      mass_payout: await call("/v1/payout/mass", { payouts: [{ amount: "5", currency: "USDT", network: "tron", address: FOREIGN, order_id: "frozen-mass" }] }),
      refund_elsewhere: await call("/v1/payment/refund", { uuid: paid.uuid, address: FOREIGN, amount: "5" }),
      wallet_refund_elsewhere: await call("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: FOREIGN }),
    };
    for (const [kind, response] of Object.entries(refusals)) {
      if (kind === "mass_payout") expect(response.body.result.items[0], kind).toMatchObject({ success: false, message: expect.stringMatching(/frozen/) });
      else expect([kind, response.status, response.body.error?.code]).toEqual([kind, 409, "payout.frozen"]);
    }
    // Back to the address that paid: never frozen.
    const refundToPayer = await call("/v1/payment/refund", { uuid: paid.uuid, amount: "5" });
    expect(refundToPayer.status, JSON.stringify(refundToPayer.body)).toBe(200);
    const walletRefundToPayer = await call("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: wallet.payer });
    expect(walletRefundToPayer.status, JSON.stringify(walletRefundToPayer.body)).toBe(200);
    for (const refund of await frozen.db.payout.findMany({ where: { merchantId: merchant.merchantId, kind: { in: ["refund", "wallet_refund"] } } })) expect(refund).toMatchObject({ status: "approved", holdReason: "" });

    // What the service makes on its own waits for the freeze to lift: a link claim, a split share, an auto-withdrawal.
    const claimed = await claim(frozen, link.claim_token);
    await releaseDueSplitShares(frozen);
    await payOutAutoWithdrawals(frozen);
    const held = await frozen.db.payout.findMany({ where: { merchantId: merchant.merchantId, status: "pending" } });
    expect(held.map((payout) => payout.createdBy).sort()).toEqual(["autowithdraw", `payoutlink:${link.link_id}`, "split"]);
    expect(claimed.status).toBe("pending");
    for (const payout of held) {
      expect(payout.holdReason).toBe("freeze");
      expect(payout.autoApproveAt!.getTime()).toBeGreaterThan(Date.now() + 23 * HOUR);
    }
    // Not before the freeze lifts; then they go out, approved by the service.
    expect(await approveWaitedPayouts(frozen)).toBe(0);
    expect(await approveWaitedPayouts(depsWith({ GATEWAY_PAYOUT_FREEZE_SECONDS: "86400" }, () => new Date(Date.now() + 25 * HOUR)))).toBe(3);
    for (const payout of await frozen.db.payout.findMany({ where: { id: { in: held.map((payout) => payout.id) } } })) expect(payout).toMatchObject({ status: "approved", approvedBy: WAITED_APPROVER });
    expect(await auditLedger(database().db)).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("holds money out above the owner's thresholds for a second person, whichever key the first one uses", { timeout: 120_000 }, async () => {
    const deps = depsWith();
    const store = await makeStore(deps, ["owner", "admin"]);
    const [owner, admin] = store.members;
    const paid = await pay(deps, owner.key, "300.00");
    const wallet = await blockedWalletWithDeposit(deps, owner.key);
    const link = await createLink(deps, owner.key, "20");
    await runUnit(deps, setMoneyOutThreshold, { merchantId: store.merchantId, actor: `user:${owner.id}`, input: { currency: "USDT", network: "tron", per_payout: "10", per_day: "75" } });
    const call = (path: string, body: unknown, key = owner.key) => callSigned(path, body, key, { deps });

    const small = (await call("/v1/payout", { amount: "10", currency: "USDT", network: "tron", address: FOREIGN, order_id: "small" })).body.result;
    expect(small).toMatchObject({ internal_status: "approved", approval_required: false });
    const large = (await call("/v1/payout", { amount: "10.5", currency: "USDT", network: "tron", address: FOREIGN, order_id: "large" })).body.result;
    expect(large).toMatchObject({ internal_status: "pending", approval_required: true });
    // The same person with another key, or with the key it asked with: not a second person.
    expect((await call("/v1/payout/approve", { uuid: large.uuid }, owner.otherKey)).body.error.code).toBe("payout.approver_is_creator");
    expect((await call("/v1/payout/approve", { uuid: large.uuid }, owner.key)).body.error.code).toBe("payout.approver_is_creator");
    // A key the operator made and handed to the store is nobody's second pair of eyes.
    expect((await call("/v1/payout/approve", { uuid: large.uuid }, store.operator)).body.error.code).toBe("payout.approver_not_allowed");
    expect((await call("/v1/payout/approve", { uuid: large.uuid }, admin.key)).body.result.internal_status).toBe("approved");

    // A refund to another address, a link claim and a wallet refund above it wait too; a refund to the payer does not.
    expect((await call("/v1/payment/refund", { uuid: paid.uuid, address: FOREIGN, amount: "11" })).status).toBe(200);
    expect((await call("/v1/payment/refund", { uuid: paid.uuid, amount: "11" })).status).toBe(200);
    await claim(deps, link.claim_token);
    expect((await call("/v1/wallet/blocked-address-refund", { uuid: wallet.uuid, address: FOREIGN })).status).toBe(200);
    const byKind = async (kind: string, where: Record<string, unknown> = {}) => deps.db.payout.findFirstOrThrow({ where: { merchantId: store.merchantId, kind, ...where } });
    expect(await byKind("refund", { address: FOREIGN })).toMatchObject({ status: "pending", holdReason: "threshold" });
    expect(await byKind("refund", { address: paid.payer_address })).toMatchObject({ status: "approved" });
    const claimed = await byKind("payout", { orderId: `payoutlink:${link.link_id}` });
    expect(claimed).toMatchObject({ status: "pending", holdReason: "threshold" });
    // The claim answers to the link's creator: not a second person for it, whichever key.
    expect((await call("/v1/payout/approve", { uuid: claimed.id }, owner.otherKey)).body.error.code).toBe("payout.approver_is_creator");
    expect(await byKind("wallet_refund")).toMatchObject({ status: "pending", holdReason: "threshold" });

    // Per 24 hours: what went out today counts (10 + 10.5 + 11 + 11 + 20 + 12 = 74.5 of 75); the next small one waits.
    const nextResponse = await call("/v1/payout", { amount: "3", currency: "USDT", network: "tron", address: FOREIGN, order_id: "over-the-day" });
    const next = nextResponse.body.result;
    expect(nextResponse.status, JSON.stringify(nextResponse.body)).toBe(200);
    expect(next).toMatchObject({ internal_status: "pending", approval_required: true });
    expect(await auditLedger(database().db)).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("makes money out that needs a second person wait in a store with nobody else, then approves it", { timeout: 120_000 }, async () => {
    const deps = depsWith({ GATEWAY_PAYOUT_WAITING_SECONDS: "7200" });
    const store = await makeStore(deps, ["owner"]);
    const [owner] = store.members;
    await pay(deps, owner.key, "100.00");
    await runUnit(deps, setMoneyOutThreshold, { merchantId: store.merchantId, actor: `user:${owner.id}`, input: { currency: "USDT", network: "tron", per_payout: "1" } });
    const waiting = (await callSigned("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: FOREIGN, order_id: "alone" }, owner.key, { deps })).body.result;
    const row = await deps.db.payout.findUniqueOrThrow({ where: { id: waiting.uuid } });
    expect(row).toMatchObject({ status: "pending", holdReason: "threshold" });
    expect(row.autoApproveAt!.getTime() - row.createdAt.getTime()).toBe(2 * HOUR);
    expect(await approveWaitedPayouts(deps)).toBe(0);
    expect(await approveWaitedPayouts({ ...deps, now: () => new Date(Date.now() + 2 * HOUR + 1000) })).toBe(1);
    expect(await deps.db.payout.findUniqueOrThrow({ where: { id: waiting.uuid } })).toMatchObject({ status: "approved", approvedBy: WAITED_APPROVER });
  });

  it("freezes money out after a new auto-withdraw address, a new external split address or a loosened threshold, not after a tightened one", { timeout: 120_000 }, async () => {
    const plain = depsWith();
    const store = await makeStore(plain, ["owner"]);
    const [owner] = store.members;
    await pay(plain, owner.key, "100.00");
    // Keys older than the freeze: only the change under test can freeze.
    await plain.db.apiKey.updateMany({ where: { merchantId: store.merchantId }, data: { createdAt: new Date(Date.now() - 48 * HOUR) } });
    const frozen = depsWith({ GATEWAY_PAYOUT_FREEZE_SECONDS: "3600" });
    const partner = await makeStore(plain);
    const payout = (orderId: string) => callSigned("/v1/payout", { amount: "3", currency: "USDT", network: "tron", address: FOREIGN, order_id: orderId }, owner.key, { deps: frozen });
    const thaw = () => frozen.db.merchant.update({ where: { id: store.merchantId }, data: { controlsChangedAt: null } });
    const before = await payout("before");
    expect(before.status, JSON.stringify(before.body)).toBe(200);

    const changes: [string, () => Promise<unknown>, boolean][] = [
      ["a tightened threshold", () => runUnit(frozen, setMoneyOutThreshold, { merchantId: store.merchantId, actor: `user:${owner.id}`, input: { currency: "USDT", network: "tron", per_payout: "50" } }), false],
      ["a raised threshold", () => runUnit(frozen, setMoneyOutThreshold, { merchantId: store.merchantId, actor: `user:${owner.id}`, input: { currency: "USDT", network: "tron", per_payout: "60" } }), true],
      ["a removed threshold", () => runUnit(frozen, setMoneyOutThreshold, { merchantId: store.merchantId, actor: `user:${owner.id}`, input: { currency: "USDT", network: "tron" } }), true],
      ["a new auto-withdraw address", () => callSigned("/v1/auto-withdraw/set", { currency: "USDT", network: "tron", address: FOREIGN, min: "1000" }, owner.key, { deps: frozen }), true],
      ["the same auto-withdraw address again", () => callSigned("/v1/auto-withdraw/set", { currency: "USDT", network: "tron", address: FOREIGN, min: "2000" }, owner.key, { deps: frozen }), false],
      ["a new external split address", () => callSigned("/v1/split/rule", { percent: 1, address: FOREIGN, network: "tron" }, owner.key, { deps: frozen }), true],
      ["a new split to another store", () => callSigned("/v1/split/rule", { percent: 1, merchant_id: partner.merchantId }, owner.key, { deps: frozen }), true],
    ];
    for (const [index, [change, make, freezes]] of changes.entries()) {
      const made = (await make()) as { status?: number; body?: unknown };
      expect([change, made.status ?? 200], JSON.stringify(made.body)).toEqual([change, 200]);
      const response = await payout(`after-${index}`);
      expect([change, response.body.error?.code ?? "accepted"]).toEqual([change, freezes ? "payout.frozen" : "accepted"]);
      await thaw();
    }
  });
});
