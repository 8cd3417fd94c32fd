import { ed25519 } from "@noble/curves/ed25519";
import bs58 from "bs58";
import { beforeEach, describe, expect, it } from "vitest";
import { Keypair, PublicKey, SystemProgram, VersionedTransaction } from "@solana/web3.js";
import { createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { address } from "@solana/kit";
import { deriveEd25519DepositAddress, deriveMasterSeed } from "@/lib/chains/addresses";
import { deriveSlip10Ed25519 } from "@/lib/chains/addresses/slip10";
import { ChainError, type ChainAdapter, type ObservedTransfer, type SigningKey } from "@/lib/chains/types";
import { createLiteSvmAccess, type LiteSvmChain } from "@/lib/chains/solana/testing/litesvm-access";
import type { SolanaAccess } from "@/lib/chains/solana/solana-access";
import { createSolanaAdapter } from "@/lib/chains/solana/solana-adapter";
import { createSolanaSender } from "@/lib/chains/solana/solana-sender";
import { deployTestMint, mintTestTokens, tokensOf } from "@/lib/chains/solana/testing/test-mint";
import { withSending } from "@/lib/chains/testing/with-sending";

const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const SEED = deriveMasterSeed(TEST_MNEMONIC);
const OWNER_0 = deriveEd25519DepositAddress({ network: "solana", seed: SEED, index: 0 }).address;
const OWNER_1 = deriveEd25519DepositAddress({ network: "solana", seed: SEED, index: 1 }).address;
const SOL = 1_000_000_000n;
const USDT = 1_000_000n; // the test mint has 6 decimals, like the catalogue's USDT

/** A hot wallet key as the service holds it: the SLIP-10 seed of a Solana path. */
function hotWalletKey(index: number): SigningKey {
  const privateKey = deriveSlip10Ed25519(SEED, `m/44'/501'/${index}'/0'`).privateKey;
  const publicKey = ed25519.getPublicKey(privateKey);
  return { privateKey, publicKey, address: bs58.encode(publicKey) };
}

interface World {
  chain: LiteSvmChain;
  payer: Keypair;
  mint: PublicKey;
  adapter: () => ChainAdapter;
}

async function createWorld(): Promise<World> {
  const chain = createLiteSvmAccess();
  const payer = Keypair.generate();
  chain.airdrop(payer.publicKey.toBase58(), 100n * SOL);
  const mint = await deployTestMint(chain, payer, 6);
  await mintTestTokens(chain, payer, mint, payer.publicKey, 1_000n * USDT);
  // Each call builds a new adapter instance, as a restarted watcher would.
  const adapter = () => createSolanaAdapter({ access: chain, watchedOwners: async () => [OWNER_0, OWNER_1], mints: { USDT: mint.toBase58() } });
  return { chain, payer, mint, adapter };
}

/** Sends `amount` of the test token from the payer to `owner`'s ATA (created in the same transaction). */
async function depositTokens(world: World, owner: string, amount: bigint): Promise<string> {
  const ownerKey = new PublicKey(owner);
  const ata = getAssociatedTokenAddressSync(world.mint, ownerKey, true);
  const source = getAssociatedTokenAddressSync(world.mint, world.payer.publicKey);
  return world.chain.sendInstructions(
    [
      createAssociatedTokenAccountIdempotentInstruction(world.payer.publicKey, ata, ownerKey, world.mint),
      createTransferCheckedInstruction(source, world.mint, ata, world.payer.publicKey, amount, 6),
    ],
    [world.payer],
  );
}

async function depositSol(world: World, owner: string, amount: bigint): Promise<string> {
  return world.chain.sendInstructions([SystemProgram.transfer({ fromPubkey: world.payer.publicKey, toPubkey: new PublicKey(owner), lamports: amount })], [world.payer]);
}

function lamportsOf(chain: LiteSvmChain, account: string): bigint {
  return chain.svm.getBalance(address(account)) ?? 0n;
}

function keyOf(transfer: ObservedTransfer): string {
  return `${transfer.txid}#${transfer.position}`;
}

/** Transfers of one slot come in signature order (a slot's inner order is not known without the block). */
function sorted(transfers: ObservedTransfer[]): ObservedTransfer[] {
  return [...transfers].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

describe("Solana adapter on litesvm: deposits", () => {
  let world: World;
  beforeEach(async () => {
    world = await createWorld();
  });

  it("reports SOL and SPL deposits to derived owners once per (signature, position) with exact amounts", async () => {
    const adapter = world.adapter();
    const cursor = (await adapter.getTip()).height;
    const slot = world.chain.advanceSlots(1);

    const solTxid = await depositSol(world, OWNER_0, 1_500_000_000n);
    const tokenTxid = await depositTokens(world, OWNER_0, 25n * USDT);
    // Two transfers in one transaction, one to an unwatched address in between.
    const stranger = Keypair.generate().publicKey;
    const multiTxid = await world.chain.sendInstructions(
      [
        SystemProgram.transfer({ fromPubkey: world.payer.publicKey, toPubkey: new PublicKey(OWNER_1), lamports: 3n * SOL }),
        SystemProgram.transfer({ fromPubkey: world.payer.publicKey, toPubkey: stranger, lamports: 2n * SOL }),
        SystemProgram.transfer({ fromPubkey: world.payer.publicKey, toPubkey: new PublicKey(OWNER_1), lamports: 7n }),
      ],
      [world.payer],
    );

    const transfers = await adapter.scanTransfers({ afterHeight: cursor });
    const blockHash = await adapter.getBlockHash(slot);
    expect(blockHash).toEqual(expect.any(String));
    const payer = world.payer.publicKey.toBase58();
    const common = { network: "solana", fromAddress: payer, blockHeight: slot, blockHash };
    expect(sorted(transfers)).toEqual(sorted([
      { ...common, currency: "SOL", txid: solTxid, position: 0, toAddress: OWNER_0, amountMinor: 1_500_000_000n },
      // Position 1: the ATA creation is instruction 0 of the same transaction.
      { ...common, currency: "USDT", txid: tokenTxid, position: 1, toAddress: OWNER_0, amountMinor: 25_000_000n },
      { ...common, currency: "SOL", txid: multiTxid, position: 0, toAddress: OWNER_1, amountMinor: 3n * SOL },
      { ...common, currency: "SOL", txid: multiTxid, position: 2, toAddress: OWNER_1, amountMinor: 7n },
    ]));
    expect(new Set(transfers.map(keyOf)).size).toBe(transfers.length);
    expect(tokensOf(world.chain, world.mint, OWNER_0)).toBe(25_000_000n);
  });

  it("ignores tokens of another mint, even in the owner's ATA for that mint", async () => {
    const adapter = world.adapter();
    const cursor = (await adapter.getTip()).height;
    const otherMint = await deployTestMint(world.chain, world.payer, 6);
    await mintTestTokens(world.chain, world.payer, otherMint, new PublicKey(OWNER_0), 5n * USDT);
    expect(await adapter.scanTransfers({ afterHeight: cursor })).toEqual([]);
  });

  it("keeps the cursor: slots above afterHeight only, and a restarted adapter reports the same transfers again", async () => {
    const start = (await world.adapter().getTip()).height;
    const firstSlot = world.chain.advanceSlots(1);
    const first = await depositSol(world, OWNER_0, 10_000_000n);
    const secondSlot = world.chain.advanceSlots(3);
    const second = await depositTokens(world, OWNER_1, 4n * USDT);

    // Pass 1 reads everything, then "crashes" before the watcher stores the new cursor.
    const pass1 = await world.adapter().scanTransfers({ afterHeight: start });
    expect(pass1.map((transfer) => [transfer.txid, transfer.blockHeight])).toEqual([
      [first, firstSlot],
      [second, secondSlot],
    ]);
    // A new instance from the same cursor: the same transfers, field for field (the watcher dedupes on txid + position).
    const pass2 = await world.adapter().scanTransfers({ afterHeight: start });
    expect(pass2).toEqual(pass1);
    // From a later cursor: only what is above it, nothing reported twice.
    expect((await world.adapter().scanTransfers({ afterHeight: firstSlot })).map(keyOf)).toEqual([`${second}#1`]);
    const tip = await world.adapter().getTip();
    expect(tip.height).toBe(secondSlot);
    expect(await world.adapter().scanTransfers({ afterHeight: tip.height })).toEqual([]);
    // Skipped slots have no block.
    expect(await world.adapter().getBlockHash(firstSlot + 1)).toBeNull();
  });
});

describe("Solana sender on litesvm: payouts", () => {
  let world: World;
  const hot = hotWalletKey(1000);
  beforeEach(async () => {
    world = await createWorld();
    world.chain.airdrop(hot.address, 10n * SOL);
    await mintTestTokens(world.chain, world.payer, world.mint, new PublicKey(hot.address), 100n * USDT);
  });

  function sender(access: SolanaAccess = world.chain) {
    return withSending(createSolanaSender({ access, mints: { USDT: world.mint.toBase58() } }));
  }

  it("pays SOL: the recipient gains exactly the amount, the hot wallet pays amount + 5000 lamports", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const transfer = { currency: "SOL", toAddress: recipient, amountMinor: 2n * SOL };
    expect(await sender().estimateFee(hot, transfer)).toEqual({ feeMinor: 5000n, feeCurrency: "SOL" });
    const hotBefore = lamportsOf(world.chain, hot.address);

    const { txid } = await sender().send(hot, transfer);

    expect(lamportsOf(world.chain, recipient)).toBe(2n * SOL);
    expect(hotBefore - lamportsOf(world.chain, hot.address)).toBe(2n * SOL + 5000n);
    const slot = Number(world.chain.svm.getClock().slot);
    // The fee the chain charged: exactly what left the hot wallet beside the amount.
    expect(await sender().getTransaction(txid)).toEqual({ state: "confirmed", confirmations: 1, blockHeight: slot, feeMinor: 5000n });
    world.chain.advanceSlots(5);
    expect(await sender().getTransaction(txid)).toEqual({ state: "confirmed", confirmations: 6, blockHeight: slot, feeMinor: 5000n });
    expect(await sender().getTransaction(bs58.encode(new Uint8Array(64).fill(7)))).toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
  });

  it("pays the token: creates the missing ATA once (rent from the hot wallet) and moves exact amounts", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const rent = world.chain.svm.minimumBalanceForRentExemption(165n);
    const transfer = { currency: "USDT", toAddress: recipient, amountMinor: 7_500_000n };
    expect(await sender().estimateFee(hot, transfer)).toEqual({ feeMinor: 5000n + rent, feeCurrency: "SOL" });
    const lamportsBefore = lamportsOf(world.chain, hot.address);

    await sender().send(hot, transfer);

    expect(tokensOf(world.chain, world.mint, recipient)).toBe(7_500_000n);
    expect(tokensOf(world.chain, world.mint, hot.address)).toBe(100n * USDT - 7_500_000n);
    expect(lamportsBefore - lamportsOf(world.chain, hot.address)).toBe(5000n + rent);

    // The ATA exists now: only the base fee.
    const again = { ...transfer, amountMinor: 1n };
    expect(await sender().estimateFee(hot, again)).toEqual({ feeMinor: 5000n, feeCurrency: "SOL" });
    const lamportsBetween = lamportsOf(world.chain, hot.address);
    await sender().send(hot, again);
    expect(tokensOf(world.chain, world.mint, recipient)).toBe(7_500_001n);
    expect(lamportsBetween - lamportsOf(world.chain, hot.address)).toBe(5000n);
  });

  it("a payout to a deposit owner is seen by the adapter with the hot wallet as payer", async () => {
    const adapter = world.adapter();
    const cursor = (await adapter.getTip()).height;
    world.chain.advanceSlots(1);
    const { txid } = await sender().send(hot, { currency: "USDT", toAddress: OWNER_1, amountMinor: 3n * USDT });
    const [seen] = await adapter.scanTransfers({ afterHeight: cursor });
    expect(seen).toMatchObject({ txid, position: 1, currency: "USDT", toAddress: OWNER_1, fromAddress: hot.address, amountMinor: 3n * USDT });
  });

  it("refuses an identical payout with the same blockhash until the next block", async () => {
    const transfer = { currency: "SOL", toAddress: Keypair.generate().publicKey.toBase58(), amountMinor: SOL };
    const payouts = sender();
    await payouts.send(hot, transfer);
    const error = await payouts.send(hot, transfer).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect((error as ChainError).retryable).toBe(true);
    world.chain.advanceSlots(1);
    await payouts.send(hot, transfer);
    expect(lamportsOf(world.chain, transfer.toAddress)).toBe(2n * SOL);
  });

  it("signs without broadcasting; the same bytes broadcast again are one transaction", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const payouts = sender();
    const signed = await payouts.sign(hot, { currency: "SOL", toAddress: recipient, amountMinor: SOL }, { inFlight: [] });
    expect(signed).toMatchObject({ consumes: { blockhash: world.chain.svm.latestBlockhash() }, feeMinor: 5000n });
    // The wire transaction, base64: its first signature is the txid.
    expect(bs58.encode(VersionedTransaction.deserialize(Buffer.from(signed.raw, "base64")).signatures[0])).toBe(signed.txid);
    expect(lamportsOf(world.chain, recipient)).toBe(0n);
    expect(await payouts.getTransaction(signed.txid)).toMatchObject({ state: "unknown" });

    const hotBefore = lamportsOf(world.chain, hot.address);
    expect(await payouts.broadcast(signed)).toEqual({ kind: "accepted" });
    // A retry after a lost answer: the chain refuses the duplicate, the sender sees it landed.
    expect(await payouts.broadcast(signed)).toEqual({ kind: "accepted" });
    expect(lamportsOf(world.chain, recipient)).toBe(SOL);
    expect(hotBefore - lamportsOf(world.chain, hot.address)).toBe(SOL + 5000n);
    expect(await payouts.getTransaction(signed.txid)).toMatchObject({ state: "confirmed" });
  });

  it("an uncertain broadcast, then the same bytes again: one transaction", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    // The node takes the transaction, but the answer is lost and the status cannot be read either.
    let isDark = true;
    const flaky: SolanaAccess = {
      ...world.chain,
      sendTransaction: async (wire) => {
        await world.chain.sendTransaction(wire);
        if (isDark) throw new Error("socket hang up");
      },
      getSignatureStatus: async (signature) => {
        if (isDark) throw new Error("socket hang up");
        return world.chain.getSignatureStatus(signature);
      },
    };
    const payouts = sender(flaky);
    const signed = await payouts.sign(hot, { currency: "SOL", toAddress: recipient, amountMinor: SOL }, { inFlight: [] });
    expect(await payouts.broadcast(signed)).toMatchObject({ kind: "uncertain" });
    isDark = false;
    expect(await payouts.broadcast(signed)).toEqual({ kind: "accepted" });
    expect(lamportsOf(world.chain, recipient)).toBe(SOL);
  });

  it("canStillLand: true until a finalized block is past its blockhash's last valid height, false after", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const payouts = sender();
    const signed = await payouts.sign(hot, { currency: "SOL", toAddress: recipient, amountMinor: SOL }, { inFlight: [] });
    expect(signed.consumes).toEqual({ blockhash: world.chain.svm.latestBlockhash(), validUntilHeight: await world.chain.getFinalizedBlockHeight() });
    expect(await payouts.canStillLand(signed, hot)).toBe(true);
    // A node that lags behind (its finalized height below the last valid one) can only make it wait.
    const lagging: SolanaAccess = { ...world.chain, getFinalizedBlockHeight: async () => signed.consumes.validUntilHeight! - 10 };
    world.chain.advanceSlots(1);
    expect(world.chain.svm.latestBlockhash()).not.toBe(signed.consumes.blockhash);
    expect(await createSolanaSender({ access: lagging }).canStillLand(signed, hot)).toBe(true);
    expect(await payouts.canStillLand(signed, hot)).toBe(false);
    // And indeed it never lands: the chain refuses it for good.
    expect(await payouts.broadcast(signed)).toMatchObject({ kind: "rejected", retryable: false });
    expect(lamportsOf(world.chain, recipient)).toBe(0n);
    expect(await payouts.getTransaction(signed.txid)).toMatchObject({ state: "unknown" });
    // Without its last valid height nothing can be told.
    await expect(payouts.canStillLand({ txid: signed.txid, consumes: {} }, hot)).rejects.toBeInstanceOf(ChainError);
  });

  it.each([
    ["not base58", "not-a-solana-address!"],
    ["too short", "abc"],
    ["an EVM address", "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"],
    ["a Tron address", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"],
    ["31 bytes", bs58.encode(new Uint8Array(31).fill(1))],
  ])("refuses %s before signing or calling the node", async (_label, toAddress) => {
    let calls = 0;
    const counting = new Proxy(world.chain, {
      get(target, property, receiver) {
        calls++;
        return Reflect.get(target, property, receiver);
      },
    });
    const error = await sender(counting)
      .send(hot, { currency: "SOL", toAddress, amountMinor: 1n })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect((error as ChainError).retryable).toBe(false);
    expect(calls).toBe(0);
  });

  it("reads SOL as the wallet's lamports and a token as its associated token account's amount, exactly, after payouts", async () => {
    const payouts = sender();
    const recipient = Keypair.generate().publicKey.toBase58();
    expect(await payouts.getBalance(hot.address, "SOL")).toBe(10n * SOL);
    expect(await payouts.getBalance(hot.address, "USDT")).toBe(100n * USDT);
    // No account, no associated token account (and USDC's catalogue mint is not on litesvm): nothing held.
    expect(await payouts.getBalance(recipient, "SOL")).toBe(0n);
    expect(await payouts.getBalance(recipient, "USDT")).toBe(0n);
    expect(await payouts.getBalance(hot.address, "USDC")).toBe(0n);

    await payouts.send(hot, { currency: "SOL", toAddress: recipient, amountMinor: 2n * SOL });
    await payouts.send(hot, { currency: "USDT", toAddress: recipient, amountMinor: 7_500_000n });
    // Two base fees, and the rent of the recipient's new token account.
    const rent = world.chain.svm.minimumBalanceForRentExemption(165n);
    expect(await payouts.getBalance(hot.address, "SOL")).toBe(8n * SOL - 2n * 5000n - rent);
    expect(await payouts.getBalance(hot.address, "USDT")).toBe(100n * USDT - 7_500_000n);
    expect(await payouts.getBalance(recipient, "SOL")).toBe(2n * SOL);
    expect(await payouts.getBalance(recipient, "USDT")).toBe(7_500_000n);
  });

  it("reads balances through the balance layer within the caller's deadline; refuses what Solana does not carry without asking", async () => {
    let calls = 0;
    const hanging: SolanaAccess = {
      ...world.chain,
      getAccount: () => {
        calls++;
        return new Promise(() => undefined);
      },
    };
    const reader = createSolanaSender({ access: world.chain, balanceAccess: hanging, mints: { USDT: world.mint.toBase58() } });
    const started = Date.now();
    await expect(reader.getBalance(hot.address, "USDT", { timeoutMs: 50 })).rejects.toMatchObject({ name: "ChainError", retryable: true });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(calls).toBe(1);
    for (const [address, currency] of [
      [hot.address, "DOGE"],
      ["0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "SOL"],
    ]) {
      await expect(reader.getBalance(address, currency), currency).rejects.toMatchObject({ name: "ChainError", retryable: false });
    }
    expect(calls).toBe(1);
  });

  it("refuses what the hot wallet cannot pay, and unknown currencies, as final", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    for (const transfer of [
      { currency: "SOL", toAddress: recipient, amountMinor: 11n * SOL },
      { currency: "USDT", toAddress: recipient, amountMinor: 101n * USDT },
      { currency: "DOGE", toAddress: recipient, amountMinor: 1n },
      // Below the rent-exempt minimum of a new account: the runtime would refuse it.
      { currency: "SOL", toAddress: recipient, amountMinor: 1000n },
    ]) {
      const error = await sender().send(hot, transfer).catch((caught: unknown) => caught);
      expect(error, transfer.currency).toBeInstanceOf(ChainError);
      expect((error as ChainError).retryable).toBe(false);
    }
    expect(lamportsOf(world.chain, recipient)).toBe(0n);
  });

  it("refuses a key that does not match its address", async () => {
    const other = hotWalletKey(1001);
    const error = await sender()
      .send({ ...hot, address: other.address }, { currency: "SOL", toAddress: other.address, amountMinor: SOL })
      .catch((caught: unknown) => caught);
    expect((error as ChainError).retryable).toBe(false);
  });
});

describe("Solana access failures", () => {
  it("turns a throwing litesvm access layer into retryable ChainErrors", async () => {
    const world = await createWorld();
    const broken: SolanaAccess = {
      ...world.chain,
      listSignatures: async () => {
        throw new Error("index unavailable");
      },
      getLatestBlockhash: async () => {
        throw new Error("node restarting");
      },
    };
    const adapter = createSolanaAdapter({ access: broken, watchedOwners: async () => [OWNER_0] });
    await expect(adapter.scanTransfers({ afterHeight: 0 })).rejects.toMatchObject({ name: "ChainError", retryable: true });

    const hot = hotWalletKey(1000);
    world.chain.airdrop(hot.address, SOL);
    const payouts = withSending(createSolanaSender({ access: broken }));
    await expect(payouts.send(hot, { currency: "SOL", toAddress: OWNER_0, amountMinor: SOL / 10n })).rejects.toMatchObject({
      name: "ChainError",
      retryable: true,
    });
    expect(lamportsOf(world.chain, OWNER_0)).toBe(0n);
  });

  it("fails the pass when a listed transaction is not served yet, instead of skipping it", async () => {
    const world = await createWorld();
    const cursor = (await world.adapter().getTip()).height;
    world.chain.advanceSlots(1);
    await depositSol(world, OWNER_0, SOL);
    const lagging: SolanaAccess = { ...world.chain, getTransaction: async () => null };
    const adapter = createSolanaAdapter({ access: lagging, watchedOwners: async () => [OWNER_0] });
    await expect(adapter.scanTransfers({ afterHeight: cursor })).rejects.toMatchObject({ name: "ChainError", retryable: true });
  });
});
