import { Address, toNano, TupleReader } from "@ton/core";
import { keyPairFromSeed } from "@ton/crypto";
import { WalletContractV4 } from "@ton/ton";
import { Blockchain, createShardAccount, type SandboxContract, type TreasuryContract } from "@ton/sandbox";
import { beginCell, contractAddress, type Cell } from "@ton/core";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import { deployTestJetton, type TestJetton } from "@/lib/chains/ton/testing/test-jetton";
import { createTonSandboxAccess, type TonSandboxChain } from "@/lib/chains/ton/testing/ton-sandbox-access";
import { parseJettonNotification, readTextComment } from "@/lib/chains/ton/ton-messages";
import { createTonSender } from "@/lib/chains/ton/ton-sender";
import type { TonAccess } from "@/lib/chains/ton/ton-access";
import type { ChainSender } from "@/lib/chains/types";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// Merchant payouts on a real TON emulator (@ton/sandbox): a Toncoin payout and a USDT jetton
// payout leave the hot wallet exactly once, the recipient's balance grows by exactly the
// payout's receive_amount, the memo travels as the text comment (TON) or in the forward payload
// (jetton), and each payout ends confirmed/paid with one payout.confirmed webhook and a clean
// ledger. The merchant's balance comes from an invoice paid on the sandbox ton chain; the real
// coins sit in the hot wallet on @ton/sandbox.

const START_TIME = 1_800_000_000;

/** A fresh wallet v4R2 address nobody has deployed, in the mainnet non-bounceable form. */
function freshWalletAddress(): string {
  const { publicKey } = keyPairFromSeed(randomBytes(32));
  return WalletContractV4.create({ workchain: 0, publicKey }).address.toString({ bounceable: false });
}

function minor(amount: string, decimals: number): bigint {
  const parsed = parseAmount(amount, decimals);
  if (parsed === null) throw new Error(`not an amount: ${amount}`);
  return parsed;
}

interface World {
  chain: TonSandboxChain;
  treasury: SandboxContract<TreasuryContract>;
  jetton: TestJetton;
  hot: Address;
  sender: ChainSender;
}

/** A sandbox chain with a USDT jetton, and the service's hot wallet holding 20 TON and 100 USDT there. */
async function createWorld(hotJettons = 100_000_000n): Promise<World> {
  const blockchain = await Blockchain.create();
  blockchain.now = START_TIME;
  const chain = createTonSandboxAccess(blockchain);
  const treasury = await blockchain.treasury("treasury");
  const jetton = await deployTestJetton(chain, treasury);
  const deps = makeTestDeps();
  const hot = Address.parse(deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "ton", HOT_WALLET_INDEX).address);
  chain.record(await treasury.send({ to: hot, value: toNano("20"), bounce: false }));
  await jetton.mint(hot, hotJettons);
  chain.advanceTime(1);
  return { chain, treasury, jetton, hot, sender: createTonSender({ access: chain, jettons: { USDT: jetton.master.toString() } }) };
}

/** A merchant with a webhook endpoint and an available balance from an invoice paid on the sandbox ton chain. */
async function fundedMerchant(currency: "TON" | "USDT"): Promise<TestMerchant> {
  const merchant = await makeMerchant();
  expect((await callSigned("/v1/webhooks", { url: "http://127.0.0.1:9/hook" }, merchant)).status).toBe(201);
  const invoice = (await callSigned("/v1/payment", { amount: "20.00", currency: "USD", to_currency: currency, network: "ton" }, merchant)).body.result;
  await callSigned("/v1/sandbox/deposit", { network: "ton", currency, address: invoice.address, amount: invoice.payer_amount }, merchant);
  await callSigned("/v1/sandbox/mine", { network: "ton", blocks: 40 }, merchant);
  expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant)).body.result.payment_status).toBe("paid");
  return merchant;
}

/** POST /v1/payout with a memo: approved at once, the memo kept on the payout. */
async function createPayout(merchant: TestMerchant, body: Record<string, string>, memo: string) {
  const response = await callSigned("/v1/payout", { ...body, memo }, merchant);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.result).toMatchObject({ status: "process", internal_status: "approved", memo });
  return response.body.result as { uuid: string; order_id: string; amount: string; receive_amount: string };
}

/** Messages that reached `address` on the sandbox chain (oldest first). */
async function incomingTo(chain: TonSandboxChain, address: string) {
  return (await chain.getTransactions(Address.parse(address), { limit: 50 })).reverse().map((transaction) => transaction.inMessage!);
}

async function seqnoOf(chain: TonSandboxChain, wallet: Address): Promise<number> {
  return (await chain.runGetMethod(wallet, "seqno", [])).readNumber();
}

/** What the service says once the payout is done: paid, one transfer, one payout.confirmed delivery, nothing held. */
async function expectPaidOnce(merchant: TestMerchant, payout: { uuid: string }, currency: string): Promise<string> {
  const info = (await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant)).body.result;
  expect(info).toMatchObject({ internal_status: "confirmed", status: "paid", is_final: true });
  expect(info.txid).toMatch(/^[0-9a-f]{64}$/);
  expect(await getTestDb().outgoingTransfer.count({ where: { reference: { startsWith: `payout:${payout.uuid}:` } } })).toBe(1);
  const deliveries = await getTestDb().webhookDelivery.findMany({ where: { objectId: payout.uuid, eventType: "payout.confirmed", target: "endpoint" } });
  expect(deliveries).toHaveLength(1);
  expect(JSON.parse(deliveries[0].body)).toMatchObject({ type: "payout", uuid: payout.uuid, status: "paid", is_final: true, txid: info.txid });
  const balance = (await callSigned("/v1/balance", { currency, network: "ton" }, merchant)).body.result.balances[0];
  expect(balance.payout_held).toBe("0");
  expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  return info.txid;
}

describe("TON payouts on @ton/sandbox", () => {
  it("pays Toncoin once: the recipient gains exactly receive_amount, with the memo as the text comment", async () => {
    const world = await createWorld();
    const deps = makeTestDeps();
    const merchant = await fundedMerchant("TON");
    const recipient = freshWalletAddress();
    const payout = await createPayout(merchant, { amount: "1.5", currency: "TON", network: "ton", address: recipient, order_id: "ton-payout" }, "order 41");
    const received = minor(payout.receive_amount, 9);
    expect(received).toBeGreaterThan(0n);

    expect(await sendPayouts(deps, "ton", world.sender)).toEqual({ planned: 1, confirmed: 1 });

    const txid = await expectPaidOnce(merchant, payout, "TON");
    expect((await world.chain.getAccountState(Address.parse(recipient))).balance).toBe(received);
    const messages = await incomingTo(world.chain, recipient);
    expect(messages).toHaveLength(1);
    expect(messages[0].info).toMatchObject({ type: "internal", value: { coins: received } });
    expect(readTextComment(messages[0].body.beginParse())).toBe("order 41");
    expect(await seqnoOf(world.chain, world.hot)).toBe(1); // the hot wallet sent one message

    // Another pass finds nothing to do and sends nothing.
    world.chain.advanceTime(120);
    expect(await sendPayouts(deps, "ton", world.sender)).toEqual({ planned: 0, confirmed: 0 });
    expect(await seqnoOf(world.chain, world.hot)).toBe(1);
    expect((await world.chain.getAccountState(Address.parse(recipient))).balance).toBe(received);
    expect(await expectPaidOnce(merchant, payout, "TON")).toBe(txid);
  });

  it("pays a USDT jetton once: the recipient gains exactly receive_amount and is notified with the memo", async () => {
    const world = await createWorld();
    const deps = makeTestDeps();
    const merchant = await fundedMerchant("USDT");
    const recipient = freshWalletAddress();
    const payout = await createPayout(merchant, { amount: "7.5", currency: "USDT", network: "ton", address: recipient, order_id: "usdt-payout" }, "invoice 42");
    const received = minor(payout.receive_amount, 6);
    expect(received).toBeGreaterThan(0n);

    expect(await sendPayouts(deps, "ton", world.sender)).toEqual({ planned: 1, confirmed: 1 });

    const txid = await expectPaidOnce(merchant, payout, "USDT");
    expect(await world.jetton.balanceOf(Address.parse(recipient))).toBe(received);
    expect(await world.jetton.balanceOf(world.hot)).toBe(100_000_000n - received);
    // The recipient's wallet gets one transfer_notification: the amount, from the hot wallet, the memo as comment.
    const notifications = (await incomingTo(world.chain, recipient)).map((message) => parseJettonNotification(message.body));
    expect(notifications).toEqual([expect.objectContaining({ amount: received, memo: "invoice 42" })]);
    expect(notifications[0]!.sender!.equals(world.hot)).toBe(true);
    expect(await seqnoOf(world.chain, world.hot)).toBe(1);

    world.chain.advanceTime(120);
    expect(await sendPayouts(deps, "ton", world.sender)).toEqual({ planned: 0, confirmed: 0 });
    expect(await seqnoOf(world.chain, world.hot)).toBe(1);
    expect(await world.jetton.balanceOf(Address.parse(recipient))).toBe(received);
    expect(await expectPaidOnce(merchant, payout, "USDT")).toBe(txid);
  });
});

describe("TON payouts followed by another process", () => {
  it("a fresh sender after a restart, with 600 transfers to the hot wallet after the message: paid once, seqno advanced by one", async () => {
    const world = await createWorld();
    const deps = makeTestDeps();
    const merchant = await fundedMerchant("TON");
    const recipient = freshWalletAddress();
    const payout = await createPayout(merchant, { amount: "1.5", currency: "TON", network: "ton", address: recipient, order_id: "followed-after-restart" }, "order 45");
    const received = minor(payout.receive_amount, 9);

    // The first process: the API takes the message now, the chain applies it later.
    const queued: Cell[] = [];
    const delayed: TonAccess = { ...world.chain, sendMessage: async (message) => void queued.push(message) };
    const first = createTonSender({ access: delayed, jettons: { USDT: world.jetton.master.toString() } });
    expect(await sendPayouts(deps, "ton", first)).toEqual({ planned: 1, confirmed: 0 });
    expect(queued.length).toBeGreaterThanOrEqual(1);
    // It dies; the message applies; dust arrives at the hot wallet; the message's valid_until passes.
    await world.chain.sendMessage(queued[0]);
    for (let i = 0; i < 600; i++) world.chain.record(await world.treasury.send({ to: world.hot, value: 1n, bounce: false }));
    world.chain.advanceTime(120);

    // A fresh process (its own sender, nothing in memory) follows the transfer from the database.
    const fresh = createTonSender({ access: world.chain, jettons: { USDT: world.jetton.master.toString() } });
    expect(await sendPayouts(deps, "ton", fresh)).toEqual({ planned: 0, confirmed: 1 });
    expect(await sendPayouts(deps, "ton", fresh)).toEqual({ planned: 0, confirmed: 0 });
    await expectPaidOnce(merchant, payout, "TON");
    expect(await seqnoOf(world.chain, world.hot)).toBe(1);
    expect((await world.chain.getAccountState(Address.parse(recipient))).balance).toBe(received);
    expect(await incomingTo(world.chain, recipient)).toHaveLength(1);
  });
});

/** An active contract that throws on every message, at its bounceable address: whatever is sent to it bounces. */
async function deployRefusingContract(world: World): Promise<string> {
  const code = beginCell().storeUint(0xf232, 16).endCell(); // THROW 50
  const data = beginCell().endCell();
  const address = contractAddress(0, { code, data });
  await world.chain.blockchain.setShardAccount(address, createShardAccount({ address, code, data, balance: toNano("0.1") }));
  return address.toString({ bounceable: true });
}

describe("a Toncoin payout that bounces", () => {
  it("fails at once: nothing reached the recipient, the reserve is released, the chain's cost of the bounce is booked", async () => {
    const world = await createWorld();
    const deps = makeTestDeps();
    const merchant = await fundedMerchant("TON");
    const recipient = await deployRefusingContract(world);
    const recipientBefore = (await world.chain.getAccountState(Address.parse(recipient))).balance;
    const balanceBefore = (await callSigned("/v1/balance", { currency: "TON", network: "ton" }, merchant)).body.result.balances[0];
    const hotBefore = (await world.chain.getAccountState(world.hot)).balance;
    const payout = await createPayout(merchant, { amount: "1.5", currency: "TON", network: "ton", address: recipient, order_id: "bounced-ton" }, "order 46");

    await sendPayouts(deps, "ton", world.sender);
    await sendPayouts(deps, "ton", world.sender);

    const info = (await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant)).body.result;
    expect(info).toMatchObject({ internal_status: "failed", is_final: true });
    // One message left the hot wallet, and came back: never sent again.
    expect(await seqnoOf(world.chain, world.hot)).toBe(1);
    expect(await getTestDb().outgoingTransfer.count({ where: { reference: { startsWith: `payout:${payout.uuid}:` } } })).toBe(1);
    expect((await world.chain.getAccountState(Address.parse(recipient))).balance).toBeLessThanOrEqual(recipientBefore);
    const balance = (await callSigned("/v1/balance", { currency: "TON", network: "ton" }, merchant)).body.result.balances[0];
    expect(balance).toMatchObject({ payout_held: "0", available: balanceBefore.available });
    // What the hot wallet lost (fees of the send and of the bounce) is what the ledger booked as network fees.
    const [transfer] = await getTestDb().outgoingTransfer.findMany({ where: { reference: { startsWith: `payout:${payout.uuid}:` } } });
    expect(transfer).toMatchObject({ status: "failed", isRefusedByRecipient: true });
    const lost = hotBefore - (await world.chain.getAccountState(world.hot)).balance;
    expect(lost).toBeGreaterThan(0n);
    expect(lost).toBeLessThan(toNano("1.5"));
    expect(BigInt(transfer.feeMinor!.toFixed())).toBe(lost);
    const journal = await getTestDb().ledgerJournal.findUnique({ where: { reference: `outgoing:${transfer.id}:fee` }, include: { postings: true } });
    expect(journal!.postings.map((posting) => BigInt(posting.amount.toFixed())).sort()).toEqual([-lost, lost]);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});

describe("a jetton transfer that bounces", () => {
  it("is not paid: the hot wallet's jetton wallet refused it and the jettons stayed, so the payout tries again", async () => {
    // The hot wallet holds 1 USDT; a lagging node tells the pre-send check it holds 100.
    const world = await createWorld(1_000_000n);
    const hotJettonWallet = await world.jetton.walletOf(world.hot);
    const lagging: TonAccess = {
      ...world.chain,
      runGetMethod: async (address, method, args) =>
        method === "get_wallet_data" && address.equals(hotJettonWallet) ? new TupleReader([{ type: "int", value: 100_000_000n }]) : world.chain.runGetMethod(address, method, args),
    };
    const sender = createTonSender({ access: lagging, jettons: { USDT: world.jetton.master.toString() } });
    const deps = makeTestDeps();
    const merchant = await fundedMerchant("USDT");
    const recipient = freshWalletAddress();
    const payout = await createPayout(merchant, { amount: "7.5", currency: "USDT", network: "ton", address: recipient, order_id: "bounced" }, "invoice 44");

    expect(await sendPayouts(deps, "ton", sender)).toEqual({ planned: 1, confirmed: 0 });
    // The hot wallet's own transaction succeeded (its seqno moved), yet no jetton left it.
    expect(await seqnoOf(world.chain, world.hot)).toBe(1);
    expect(await world.jetton.balanceOf(Address.parse(recipient))).toBe(0n);
    expect(await world.jetton.balanceOf(world.hot)).toBe(1_000_000n);
    const [transfer] = await getTestDb().outgoingTransfer.findMany({ where: { reference: { startsWith: `payout:${payout.uuid}:` } } });
    expect(transfer.status).toBe("failed");
    const info = (await callSigned("/v1/payout/info", { uuid: payout.uuid }, merchant)).body.result;
    expect(info).toMatchObject({ internal_status: "approved", status: "process" });
    expect(await getTestDb().webhookDelivery.count({ where: { objectId: payout.uuid, eventType: "payout.confirmed" } })).toBe(0);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});

describe("payout memos through the API", () => {
  it("refuses a memo on a network whose transfers carry none", async () => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/payout", { amount: "10", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: "memo-tron", memo: "x" }, merchant);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("payout.memo_unsupported");
  });

  it("accepts a memo on a TON payout", async () => {
    const merchant = await fundedMerchant("TON");
    const body = { amount: "1", currency: "TON", network: "ton", address: freshWalletAddress(), order_id: "memo-ton", memo: "order 43" };
    const response = await callSigned("/v1/payout", body, merchant);
    expect(response.body.error?.code).toBeUndefined();
    expect(response.body.result).toMatchObject({ memo: "order 43", status: "process" });
  });
});
