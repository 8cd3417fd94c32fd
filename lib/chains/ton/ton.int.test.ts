import { ed25519 } from "@noble/curves/ed25519";
import { Address, beginCell, comment, toNano } from "@ton/core";
import { keyPairFromSeed } from "@ton/crypto";
import { WalletContractV4 } from "@ton/ton";
import { Blockchain, type SandboxContract, type TreasuryContract } from "@ton/sandbox";
import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { deriveEd25519DepositAddress, deriveMasterSeed } from "@/lib/chains/addresses";
import { deriveSlip10Ed25519 } from "@/lib/chains/addresses/slip10";
import { ChainError, type SigningKey } from "@/lib/chains/types";
import { createTonSandboxAccess, type TonSandboxChain } from "@/lib/chains/ton/testing/ton-sandbox-access";
import type { TonAccess } from "@/lib/chains/ton/ton-access";
import { createTonAdapter } from "@/lib/chains/ton/ton-adapter";
import { OP_JETTON_TRANSFER_NOTIFICATION } from "@/lib/chains/ton/ton-messages";
import { createTonSender, type TonSenderOptions } from "@/lib/chains/ton/ton-sender";
import { BroadcastUncertainError, withSending } from "@/lib/chains/testing/with-sending";
import { deployTestJetton, type TestJetton } from "@/lib/chains/ton/testing/test-jetton";

const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const SEED = deriveMasterSeed(TEST_MNEMONIC);
const DEPOSIT_0 = deriveEd25519DepositAddress({ network: "ton", seed: SEED, index: 0 }).address;
const DEPOSIT_1 = deriveEd25519DepositAddress({ network: "ton", seed: SEED, index: 1 }).address;
const START_TIME = 1_800_000_000;
const USDT = 1_000_000n;

/** A hot wallet key as the service holds it: the SLIP-10 seed at the TON path of `index`. */
function hotWalletKey(index: number): SigningKey {
  const privateKey = deriveSlip10Ed25519(SEED, `m/44'/607'/${index}'`).privateKey;
  const { address } = deriveEd25519DepositAddress({ network: "ton", seed: SEED, index });
  return { privateKey, publicKey: ed25519.getPublicKey(privateKey), address };
}

/** A fresh wallet v4R2 address nobody has deployed, in the non-bounceable form. */
function freshWalletAddress(): string {
  const { publicKey } = keyPairFromSeed(randomBytes(32));
  return WalletContractV4.create({ workchain: 0, publicKey }).address.toString({ bounceable: false });
}

interface World {
  chain: TonSandboxChain;
  treasury: SandboxContract<TreasuryContract>;
  payer: SandboxContract<TreasuryContract>;
  jetton: TestJetton;
}

async function createWorld(): Promise<World> {
  const blockchain = await Blockchain.create();
  blockchain.now = START_TIME;
  const chain = createTonSandboxAccess(blockchain);
  const treasury = await blockchain.treasury("treasury");
  const payer = await blockchain.treasury("payer");
  const jetton = await deployTestJetton(chain, treasury);
  await jetton.mint(payer.address, 1_000n * USDT);
  chain.advanceTime(1);
  return { chain, treasury, payer, jetton };
}

async function balanceOf(chain: TonSandboxChain, address: string): Promise<bigint> {
  return (await chain.getAccountState(Address.parse(address))).balance;
}

describe("TON adapter on @ton/sandbox: deposits", () => {
  let world: World;
  beforeEach(async () => {
    world = await createWorld();
  });

  function adapter(options: { rescanSeconds?: number; access?: TonAccess } = {}) {
    return createTonAdapter({
      access: options.access ?? world.chain,
      watchedAddresses: async () => [DEPOSIT_0, DEPOSIT_1],
      jettons: { USDT: world.jetton.master.toString() },
      rescanSeconds: options.rescanSeconds ?? 0,
    });
  }

  it("reports TON sent to an undeployed deposit address, with the exact amount and the comment as memo", async () => {
    const cursor = (await adapter().getTip()).height;
    const time = world.chain.advanceTime(5);
    const result = world.chain.record(
      await world.payer.send({ to: Address.parse(DEPOSIT_0), value: toNano("1.25"), bounce: false, body: comment("invoice-42") }),
    );
    // A bounceable transfer to the undeployed wallet comes back: not a deposit.
    world.chain.record(await world.payer.send({ to: Address.parse(DEPOSIT_1), value: toNano("2"), bounce: true }));

    const depositTransaction = result.transactions.find((transaction) => transaction.inMessage?.info.dest?.toString() === Address.parse(DEPOSIT_0).toString());
    expect(await adapter().scanTransfers({ afterHeight: cursor })).toEqual([
      {
        network: "ton",
        currency: "TON",
        txid: depositTransaction!.hash().toString("hex"),
        position: 0,
        toAddress: DEPOSIT_0,
        fromAddress: world.payer.address.toString(),
        amountMinor: 1_250_000_000n,
        blockHeight: time,
        blockHash: `utime:${time}`,
        memo: "invoice-42",
      },
    ]);
    expect(await balanceOf(world.chain, DEPOSIT_0)).toBe(1_250_000_000n);
    expect((await world.chain.getAccountState(Address.parse(DEPOSIT_0))).status).toBe("uninit");
    expect(await balanceOf(world.chain, DEPOSIT_1)).toBe(0n);
  });

  it("reports a jetton deposit only from the jetton wallet the allow-listed master derives for the owner", async () => {
    const cursor = (await adapter().getTip()).height;
    const time = world.chain.advanceTime(3);
    await world.jetton.transfer(world.payer, Address.parse(DEPOSIT_0), 25n * USDT, { memo: "inv-7" });

    // A fake "USDT": same code, another master. Its wallets send genuine-looking notifications.
    const fake = await deployTestJetton(world.chain, world.payer, "USDT (fake)");
    await fake.mint(world.payer.address, 1_000n * USDT);
    await fake.transfer(world.payer, Address.parse(DEPOSIT_0), 500n * USDT);
    // And a notification crafted by a plain wallet.
    const forged = beginCell()
      .storeUint(OP_JETTON_TRANSFER_NOTIFICATION, 32)
      .storeUint(1, 64)
      .storeCoins(900n * USDT)
      .storeAddress(world.payer.address)
      .storeBit(false)
      .endCell();
    world.chain.record(await world.payer.send({ to: Address.parse(DEPOSIT_1), value: toNano("0.05"), bounce: false, body: forged }));

    const transfers = await adapter().scanTransfers({ afterHeight: cursor });
    expect(transfers).toEqual([
      expect.objectContaining({
        currency: "USDT",
        toAddress: DEPOSIT_0,
        fromAddress: world.payer.address.toString(),
        amountMinor: 25n * USDT,
        blockHeight: time,
        memo: "inv-7",
      }),
    ]);
    expect(await world.jetton.balanceOf(Address.parse(DEPOSIT_0))).toBe(25n * USDT);
    expect(await fake.balanceOf(Address.parse(DEPOSIT_0))).toBe(500n * USDT);
    // The forged notification did arrive, and its TON is not reported as a TON deposit either.
    expect(await balanceOf(world.chain, DEPOSIT_1)).toBe(toNano("0.05"));
  });

  it("a jetton transfer without forward TON sends no notification and is not seen", async () => {
    const cursor = (await adapter().getTip()).height;
    world.chain.advanceTime(1);
    await world.jetton.transfer(world.payer, Address.parse(DEPOSIT_0), USDT, { forwardTonAmount: 0n });
    expect(await world.jetton.balanceOf(Address.parse(DEPOSIT_0))).toBe(USDT);
    expect(await adapter().scanTransfers({ afterHeight: cursor })).toEqual([]);
  });

  it("keeps the cursor (block time): above afterHeight only, the same again after a restart, and the documented overlap", async () => {
    const start = (await adapter().getTip()).height;
    const first = world.chain.advanceTime(10);
    world.chain.record(await world.payer.send({ to: Address.parse(DEPOSIT_0), value: toNano("1"), bounce: false }));
    const second = world.chain.advanceTime(10);
    await world.jetton.transfer(world.payer, Address.parse(DEPOSIT_1), 2n * USDT);

    const pass1 = await adapter().scanTransfers({ afterHeight: start });
    expect(pass1.map((transfer) => [transfer.currency, transfer.blockHeight])).toEqual([
      ["TON", first],
      ["USDT", second],
    ]);
    // A restarted watcher (new instance, same cursor) gets the same transfers, field for field.
    expect(await adapter().scanTransfers({ afterHeight: start })).toEqual(pass1);
    expect(await adapter().scanTransfers({ afterHeight: first })).toEqual([pass1[1]]);
    const tip = await adapter().getTip();
    expect(tip).toEqual({ height: second, hash: `utime:${second}` });
    expect(await adapter().scanTransfers({ afterHeight: tip.height })).toEqual([]);
    // With the default 60 s overlap, a later cursor still re-reads recent seconds: same ids again, never new ones.
    expect(await adapter({ rescanSeconds: 60 }).scanTransfers({ afterHeight: tip.height })).toEqual(pass1);
  });
});

describe("TON sender on @ton/sandbox: payouts", () => {
  let world: World;
  const hot = hotWalletKey(1000);

  beforeEach(async () => {
    world = await createWorld();
    // The hot wallet is funded before it is deployed: its first payout deploys it.
    world.chain.record(await world.treasury.send({ to: Address.parse(hot.address), value: toNano("10"), bounce: false }));
    world.chain.advanceTime(1);
  });

  /** A sender plus `send` (sign, then broadcast) that keeps the wallet's in-flight messages as the service's database does. */
  function sender(options: Partial<TonSenderOptions> = {}) {
    return withSending(createTonSender({ access: world.chain, jettons: { USDT: world.jetton.master.toString() }, ...options }));
  }

  it("pays TON: the recipient gains exactly the amount, the hot wallet pays amount + the estimated fee", async () => {
    const recipient = freshWalletAddress();
    const transfer = { currency: "TON", toAddress: recipient, amountMinor: toNano("1.5"), memo: "payout-1" };
    const estimate = await sender().estimateFee(hot, transfer);
    expect(estimate.feeCurrency).toBe("TON");
    expect(estimate.feeMinor).toBeGreaterThan(0n);
    const hotBefore = await balanceOf(world.chain, hot.address);

    const payouts = sender();
    const { txid, signed } = await payouts.send(hot, transfer);
    const record = { fromAddress: hot.address, consumes: signed.consumes };

    expect(await balanceOf(world.chain, recipient)).toBe(toNano("1.5"));
    // The estimate runs the same message on a snapshot, so on the sandbox it is exact (deployment included).
    expect(hotBefore - (await balanceOf(world.chain, hot.address))).toBe(toNano("1.5") + estimate.feeMinor);
    const now = world.chain.blockchain.now!;
    // The fee the chain charged the wallet's transaction: on the sandbox, all that left beside the amount.
    const charged = hotBefore - (await balanceOf(world.chain, hot.address)) - toNano("1.5");
    expect(await payouts.getTransaction(txid, record)).toEqual({ state: "confirmed", confirmations: 1, blockHeight: now, feeMinor: charged });
    world.chain.advanceTime(10);
    expect(await payouts.getTransaction(txid, record)).toEqual({ state: "confirmed", confirmations: 11, blockHeight: now, feeMinor: charged });
    // A fresh sender (another process, a restart) finds it from the record alone.
    expect(await sender().getTransaction(txid, record)).toEqual({ state: "confirmed", confirmations: 11, blockHeight: now, feeMinor: charged });
    // Without a record there is nowhere to look: refused, not guessed.
    await expect(sender().getTransaction(txid)).rejects.toMatchObject({ name: "ChainError", retryable: false });
  });

  it("signs each message of a wallet after the one before: concurrent payouts use consecutive seqnos and all arrive", async () => {
    const payouts = sender();
    const recipients = [freshWalletAddress(), freshWalletAddress(), freshWalletAddress()];
    const results = await Promise.all(recipients.map((toAddress, i) => payouts.send(hot, { currency: "TON", toAddress, amountMinor: toNano(String(i + 1)) })));
    expect(new Set(results.map((result) => result.txid)).size).toBe(3);
    for (const [i, recipient] of recipients.entries()) expect(await balanceOf(world.chain, recipient)).toBe(toNano(String(i + 1)));
    expect((await world.chain.runGetMethod(Address.parse(hot.address), "seqno", [])).readNumber()).toBe(3);
  });

  it("signs no message while the wallet's previous one can still apply, then the next seqno", async () => {
    // An API that accepts the message now and applies it later (as a real network does).
    const queued: Parameters<TonAccess["sendMessage"]>[0][] = [];
    const delayed: TonAccess = { ...world.chain, sendMessage: async (message) => void queued.push(message) };
    const payouts = createTonSender({ access: delayed });
    const first = freshWalletAddress();
    const second = freshWalletAddress();
    const signedFirst = await payouts.sign(hot, { currency: "TON", toAddress: first, amountMinor: toNano("1") }, { inFlight: [] });
    expect(signedFirst.consumes).toMatchObject({ seqno: 0 });
    expect(await payouts.broadcast(signedFirst)).toEqual({ kind: "accepted" });
    const refused = await payouts.sign(hot, { currency: "TON", toAddress: second, amountMinor: toNano("2") }, { inFlight: [signedFirst] }).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ name: "ChainError", retryable: true, message: expect.stringMatching(/still pending/) });
    // The first applies; the next message takes the next seqno.
    for (const message of queued.splice(0)) await world.chain.sendMessage(message);
    const signedSecond = await payouts.sign(hot, { currency: "TON", toAddress: second, amountMinor: toNano("2") }, { inFlight: [signedFirst] });
    expect(signedSecond.consumes).toMatchObject({ seqno: 1 });
    expect(await payouts.broadcast(signedSecond)).toEqual({ kind: "accepted" });
    for (const message of queued.splice(0)) await world.chain.sendMessage(message);
    expect(await balanceOf(world.chain, first)).toBe(toNano("1"));
    expect(await balanceOf(world.chain, second)).toBe(toNano("2"));
  });

  it("reports a message that never applied as unknown; it can land until a block past its valid_until shows the seqno unused", async () => {
    const dropping: TonAccess = { ...world.chain, sendMessage: async () => undefined };
    const payouts = sender({ access: dropping });
    const { txid, signed } = await payouts.send(hot, { currency: "TON", toAddress: freshWalletAddress(), amountMinor: toNano("1") });
    const record = { fromAddress: hot.address, consumes: signed.consumes };
    expect(signed.consumes).toMatchObject({ seqno: 0, signedAtMs: world.chain.blockchain.now! * 1000, validUntilMs: (world.chain.blockchain.now! + 60) * 1000 });
    expect(await payouts.getTransaction(txid, record)).toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
    expect(await payouts.canStillLand(signed, hot)).toBe(true);
    world.chain.advanceTime(60);
    // At valid_until exactly it may still apply.
    expect(await payouts.canStillLand(signed, hot)).toBe(true);
    world.chain.advanceTime(1);
    expect(await payouts.getTransaction(txid, record)).toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
    expect(await payouts.canStillLand(signed, hot)).toBe(false);
  });

  it("does not take a message for dead on a node whose state is behind the chain's time: the seqno and the time come from one answer", async () => {
    const dropping: TonAccess = { ...world.chain, sendMessage: async () => undefined };
    const { signed } = await sender({ access: dropping }).send(hot, { currency: "TON", toAddress: freshWalletAddress(), amountMinor: toNano("1") });
    world.chain.advanceTime(120);
    // A load balancer in front of a lagging node: the chain time is fresh, the state from before valid_until.
    const lagging: TonAccess = {
      ...world.chain,
      getAccountState: async (address) => ({ ...(await world.chain.getAccountState(address)), atTime: signed.consumes.signedAtMs! / 1000 + 5 }),
    };
    expect(await sender({ access: lagging }).canStillLand(signed, hot)).toBe(true);
    expect(await sender().canStillLand(signed, hot)).toBe(false);
  });

  it("judges a message whose seqno was used by the wallet's history: its own transaction, another's, or no answer yet", async () => {
    const payouts = createTonSender({ access: world.chain });
    const stale = await payouts.sign(hot, { currency: "TON", toAddress: freshWalletAddress(), amountMinor: toNano("1") }, { inFlight: [] });
    const landed = await payouts.sign(hot, { currency: "TON", toAddress: freshWalletAddress(), amountMinor: toNano("2") }, { inFlight: [] });
    expect(await payouts.broadcast(landed)).toEqual({ kind: "accepted" });
    // 600 transfers to the hot wallet after it: the whole validity window is searched.
    for (let i = 0; i < 600; i++) world.chain.record(await world.treasury.send({ to: Address.parse(hot.address), value: 1n, bounce: false }));
    expect(await payouts.canStillLand(landed, hot)).toBe(true);
    expect(await payouts.canStillLand(stale, hot)).toBe(false);
    expect(await createTonSender({ access: world.chain }).getTransaction(landed.txid, { fromAddress: hot.address, consumes: landed.consumes })).toMatchObject({ state: "confirmed" });
    // A history that lags behind the state (the seqno passed, its transaction not listed yet) proves nothing.
    const lagging: TonAccess = { ...world.chain, getTransactions: async () => [] };
    expect(await createTonSender({ access: lagging }).canStillLand(stale, hot)).toBe(true);
  });

  it("knows a message whose seqno another message used can never land", async () => {
    const payouts = createTonSender({ access: world.chain });
    const stale = await payouts.sign(hot, { currency: "TON", toAddress: freshWalletAddress(), amountMinor: toNano("1") }, { inFlight: [] });
    const other = await payouts.sign(hot, { currency: "TON", toAddress: freshWalletAddress(), amountMinor: toNano("2") }, { inFlight: [] });
    expect(other.consumes.seqno).toBe(stale.consumes.seqno);
    expect(await payouts.canStillLand(stale, hot)).toBe(true);
    expect(await payouts.broadcast(other)).toEqual({ kind: "accepted" });
    expect(await payouts.canStillLand(stale, hot)).toBe(false);
    // Broadcasting the stale one is harmless: the wallet refuses a used seqno.
    await payouts.broadcast(stale);
    expect((await world.chain.runGetMethod(Address.parse(hot.address), "seqno", [])).readNumber()).toBe(1);
  });

  it("pays a jetton through the hot wallet's jetton wallet; the recipient is notified (forward ≥ 1 nanoton)", async () => {
    await world.jetton.mint(Address.parse(hot.address), 100n * USDT);
    const adapter = createTonAdapter({ access: world.chain, watchedAddresses: async () => [DEPOSIT_1], jettons: { USDT: world.jetton.master.toString() }, rescanSeconds: 0 });
    const cursor = (await adapter.getTip()).height;
    world.chain.advanceTime(2);
    const transfer = { currency: "USDT", toAddress: DEPOSIT_1, amountMinor: 7_500_000n, memo: "payout-9" };
    const estimate = await sender().estimateFee(hot, transfer);
    // Upper bound: the wallet's fees plus all TON attached for the jetton wallets (0.05 TON + 1 nanoton).
    expect(estimate.feeMinor).toBeGreaterThan(toNano("0.05"));
    const tonBefore = await balanceOf(world.chain, hot.address);

    const payouts = sender();
    const { txid, signed } = await payouts.send(hot, transfer);

    expect(await world.jetton.balanceOf(Address.parse(DEPOSIT_1))).toBe(7_500_000n);
    expect(await world.jetton.balanceOf(Address.parse(hot.address))).toBe(100n * USDT - 7_500_000n);
    const tonSpent = tonBefore - (await balanceOf(world.chain, hot.address));
    expect(tonSpent).toBeGreaterThan(0n);
    expect(tonSpent).toBeLessThanOrEqual(estimate.feeMinor);
    expect(await adapter.scanTransfers({ afterHeight: cursor })).toEqual([
      expect.objectContaining({ currency: "USDT", amountMinor: 7_500_000n, fromAddress: Address.parse(hot.address).toString(), memo: "payout-9" }),
    ]);
    // The cost is the chain's: the wallet's fees and the attached TON, less the excess that came back.
    expect(await payouts.getTransaction(txid, { fromAddress: hot.address, consumes: signed.consumes })).toMatchObject({ state: "confirmed", confirmations: 1, feeMinor: tonSpent });
  });

  it.each([
    ["malformed", "not-a-ton-address"],
    ["a bad checksum", DEPOSIT_0.slice(0, -1) + (DEPOSIT_0.endsWith("A") ? "B" : "A")],
    ["testnet-flagged (non-bounceable)", Address.parse(DEPOSIT_0).toString({ testOnly: true, bounceable: false })],
    ["testnet-flagged (bounceable)", Address.parse(DEPOSIT_0).toString({ testOnly: true, bounceable: true })],
    ["an EVM address", "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"],
  ])("refuses %s for mainnet before signing or calling the API", async (_label, toAddress) => {
    let calls = 0;
    const counting = new Proxy(world.chain, {
      get(target, property, receiver) {
        calls++;
        return Reflect.get(target, property, receiver);
      },
    });
    const error = await withSending(createTonSender({ access: counting }))
      .send(hot, { currency: "TON", toAddress, amountMinor: 1n })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect((error as ChainError).retryable).toBe(false);
    expect(calls).toBe(0);
  });

  it("reads TON as the wallet's balance and a jetton as its jetton wallet's, exactly, after payouts", async () => {
    await world.jetton.mint(Address.parse(hot.address), 100n * USDT);
    const payouts = sender();
    const recipient = freshWalletAddress();
    const transfer = { currency: "TON", toAddress: recipient, amountMinor: toNano("1.5") };
    const estimate = await payouts.estimateFee(hot, transfer);
    const before = await payouts.getBalance(hot.address, "TON");
    expect(before).toBe((await world.chain.blockchain.getContract(Address.parse(hot.address))).balance);
    expect(await payouts.getBalance(hot.address, "USDT")).toBe(100n * USDT);
    // Nothing deployed there yet: no wallet balance, no jetton wallet.
    expect(await payouts.getBalance(recipient, "TON")).toBe(0n);
    expect(await payouts.getBalance(recipient, "USDT")).toBe(0n);

    await payouts.send(hot, transfer);
    // The estimate runs the same message on a snapshot: on the sandbox it is what the payout cost.
    expect(await payouts.getBalance(hot.address, "TON")).toBe(before - toNano("1.5") - estimate.feeMinor);
    expect(await payouts.getBalance(recipient, "TON")).toBe(toNano("1.5"));

    await payouts.send(hot, { currency: "USDT", toAddress: recipient, amountMinor: 7_500_000n });
    expect(await payouts.getBalance(hot.address, "USDT")).toBe(100n * USDT - 7_500_000n);
    expect(await payouts.getBalance(recipient, "USDT")).toBe(7_500_000n);
  });

  it("reads a balance within the caller's deadline; refuses what TON does not carry, and testnet addresses on mainnet, without asking", async () => {
    let calls = 0;
    const hanging: TonAccess = {
      ...world.chain,
      getAccountState: () => {
        calls++;
        return new Promise(() => undefined);
      },
    };
    const reader = createTonSender({ access: hanging, jettons: { USDT: world.jetton.master.toString() } });
    const started = Date.now();
    await expect(reader.getBalance(hot.address, "TON", { timeoutMs: 50 })).rejects.toMatchObject({ name: "ChainError", retryable: true });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(calls).toBe(1);
    for (const [address, currency] of [
      [hot.address, "DOGE"],
      [Address.parse(hot.address).toString({ testOnly: true }), "TON"],
      ["0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "TON"],
    ]) {
      await expect(reader.getBalance(address, currency), address).rejects.toMatchObject({ name: "ChainError", retryable: false });
    }
    expect(calls).toBe(1);
  });

  it("refuses what the hot wallet cannot pay, unknown currencies and mismatched keys as final", async () => {
    const recipient = freshWalletAddress();
    for (const [from, transfer] of [
      [hot, { currency: "TON", toAddress: recipient, amountMinor: toNano("11") }],
      [hot, { currency: "USDT", toAddress: recipient, amountMinor: 1n }],
      [hot, { currency: "DOGE", toAddress: recipient, amountMinor: 1n }],
      [{ ...hot, address: DEPOSIT_0 }, { currency: "TON", toAddress: recipient, amountMinor: 1n }],
    ] as const) {
      const error = await sender().send(from, transfer).catch((caught: unknown) => caught);
      expect(error, transfer.currency).toBeInstanceOf(ChainError);
      expect((error as ChainError).retryable).toBe(false);
    }
    expect(await balanceOf(world.chain, recipient)).toBe(0n);
  });
});

describe("TON access failures", () => {
  it("turns a throwing sandbox access layer into retryable ChainErrors", async () => {
    const world = await createWorld();
    const broken: TonAccess = {
      ...world.chain,
      getTransactions: async () => {
        throw new Error("liteserver timeout");
      },
      sendMessage: async () => {
        throw new Error("rate limited");
      },
    };
    const adapter = createTonAdapter({ access: broken, watchedAddresses: async () => [DEPOSIT_0] });
    await expect(adapter.scanTransfers({ afterHeight: 0 })).rejects.toMatchObject({ name: "ChainError", retryable: true });

    const hot = hotWalletKey(1000);
    world.chain.record(await world.treasury.send({ to: Address.parse(hot.address), value: toNano("2"), bounce: false }));
    const error = await withSending(createTonSender({ access: broken }))
      .send(hot, { currency: "TON", toAddress: freshWalletAddress(), amountMinor: toNano("1") })
      .catch((caught: unknown) => caught);
    // No answer from the API: the message may be out, so only it may follow.
    expect(error).toBeInstanceOf(BroadcastUncertainError);
    expect(error).toMatchObject({ retryable: true, message: expect.stringMatching(/^broadcast of [0-9a-f]{64} is uncertain/) });
  });
});
