import { encodeFunctionData, erc20Abi, hexToBytes, parseEther, type Address, type Hash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { validateAddress } from "@/lib/chains/addresses";
import { ChainError, type OutgoingTransfer, type SigningKey } from "@/lib/chains/types";
import { createEvmSender, type EvmSenderOptions } from "@/lib/chains/evm/evm-sender";
import { BroadcastUncertainError, withSending } from "@/lib/chains/testing/with-sending";
import { anvilClients, devAccount, findFreePort, startAnvil, type Anvil } from "@/lib/chains/evm/testing/anvil";
import { startRpcProxy } from "@/lib/chains/testing/rpc-proxy";
import { deployTestToken } from "@/lib/chains/evm/testing/test-token";

let anvil: Anvil;
let clients: ReturnType<typeof anvilClients>;
let usdt: Address;
/** The hot wallet under test: dev account 2, funded with 10 000 ETH and 1 000 000 test USDT. */
const hot = devAccount(2);
const HOT_USDT = 1_000_000_000_000n;

beforeAll(async () => {
  anvil = await startAnvil();
  clients = anvilClients(anvil.url, 0);
  usdt = (await deployTestToken(clients, 10n * HOT_USDT)).address;
  const hash = await clients.walletClient.writeContract({ address: usdt, abi: erc20Abi, functionName: "transfer", args: [hot.account.address, HOT_USDT] });
  await clients.publicClient.waitForTransactionReceipt({ hash });
});

afterAll(async () => {
  await anvil?.stop();
});

/** A sender plus `send` (sign, then broadcast) that keeps its key's in-flight transactions as the service's database does. */
function senderFor(options: Partial<EvmSenderOptions> = {}) {
  return withSending(createEvmSender({ network: "ethereum", rpcUrl: anvil.url, tokens: { USDT: usdt }, ...options }));
}

function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

function tokenBalance(address: Address): Promise<bigint> {
  return clients.publicClient.readContract({ address: usdt, abi: erc20Abi, functionName: "balanceOf", args: [address] });
}

function pendingNonce(address: Address): Promise<number> {
  return clients.publicClient.getTransactionCount({ address, blockTag: "pending" });
}

async function rejection(promise: Promise<unknown>): Promise<ChainError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a ChainError");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChainError);
  return error as ChainError;
}

describe("evm sender on anvil", () => {
  test("a native payout moves exactly the amount; the sender pays amount plus gas", async () => {
    const sender = senderFor();
    const recipient = freshAddress();
    const amount = parseEther("1.234567890123456789");
    const hotBefore = await clients.publicClient.getBalance({ address: hot.account.address });
    const estimate = await sender.estimateFee(hot.signingKey, { currency: "ETH", toAddress: recipient, amountMinor: amount });

    const { txid } = await sender.send(hot.signingKey, { currency: "ETH", toAddress: recipient, amountMinor: amount });
    const receipt = await clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash });

    expect(receipt.status).toBe("success");
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    // The fee the chain took, from the receipt.
    expect(await sender.getTransaction(txid)).toEqual({ state: "confirmed", confirmations: 1, blockHeight: Number(receipt.blockNumber), feeMinor: fee });
    expect(await clients.publicClient.getBalance({ address: recipient })).toBe(amount);
    expect(await clients.publicClient.getBalance({ address: hot.account.address })).toBe(hotBefore - amount - fee);
    expect(estimate.feeCurrency).toBe("ETH");
    // The estimate is an upper bound (gas × max fee per gas).
    expect(estimate.feeMinor).toBeGreaterThanOrEqual(fee);
    expect(receipt.gasUsed).toBe(21_000n);
    expect(receipt.type).toBe("eip1559");
  });

  test("a token payout moves exactly the amount of the token", async () => {
    const sender = senderFor();
    const recipient = freshAddress();
    const hotBefore = await tokenBalance(hot.account.address);
    const estimate = await sender.estimateFee(hot.signingKey, { currency: "USDT", toAddress: recipient, amountMinor: 7_500_000n });

    const { txid } = await sender.send(hot.signingKey, { currency: "USDT", toAddress: recipient, amountMinor: 7_500_000n });
    const receipt = await clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash });

    expect(receipt.status).toBe("success");
    expect(receipt.to?.toLowerCase()).toBe(usdt.toLowerCase());
    expect(await sender.getTransaction(txid)).toMatchObject({ state: "confirmed", confirmations: 1 });
    expect(await tokenBalance(recipient)).toBe(7_500_000n);
    expect(await tokenBalance(hot.account.address)).toBe(hotBefore - 7_500_000n);
    expect(estimate.feeMinor).toBeGreaterThanOrEqual(receipt.gasUsed * receipt.effectiveGasPrice);
  });

  test("a payout is pending until a block is mined, then gains confirmations", async () => {
    const sender = senderFor();
    await clients.testClient.setAutomine(false);
    try {
      const recipient = freshAddress();
      const { txid } = await sender.send(hot.signingKey, { currency: "ETH", toAddress: recipient, amountMinor: 1_000n });
      expect(await sender.getTransaction(txid)).toEqual({ state: "pending", confirmations: 0, blockHeight: null });

      await clients.testClient.mine({ blocks: 1 });
      const mined = await sender.getTransaction(txid);
      expect(mined).toMatchObject({ state: "confirmed", confirmations: 1 });
      await clients.testClient.mine({ blocks: 2 });
      expect(await sender.getTransaction(txid)).toEqual({ state: "confirmed", confirmations: 3, blockHeight: mined.blockHeight, feeMinor: mined.feeMinor });
      expect(await clients.publicClient.getBalance({ address: recipient })).toBe(1_000n);
    } finally {
      await clients.testClient.setAutomine(true);
    }
  });

  test("10 concurrent sends from one key, each signed with the key's in-flight transactions, get consecutive nonces", async () => {
    const sender = senderFor();
    const recipient = freshAddress();
    const firstNonce = await pendingNonce(hot.account.address);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        sender.send(hot.signingKey, index % 3 === 0
          ? { currency: "USDT", toAddress: recipient, amountMinor: BigInt(index + 1) }
          : { currency: "ETH", toAddress: recipient, amountMinor: BigInt(index + 1) }),
      ),
    );
    const receipts = await Promise.all(results.map(({ txid }) => clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash })));
    expect(receipts.every((receipt) => receipt.status === "success")).toBe(true);
    const nonces = await Promise.all(results.map(async ({ txid }) => (await clients.publicClient.getTransaction({ hash: txid as Hash })).nonce));
    expect([...nonces].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, index) => firstNonce + index));
    expect(new Set(results.map(({ txid }) => txid)).size).toBe(10);
    // Token amounts 1, 4, 7, 10; the rest in ETH.
    expect(await tokenBalance(recipient)).toBe(22n);
    expect(await clients.publicClient.getBalance({ address: recipient })).toBe(2n + 3n + 5n + 6n + 8n + 9n);
  });

  test("a nonce given back below a transaction in flight is the next signing's: the gap is filled and both are mined", async () => {
    const sender = createEvmSender({ network: "ethereum", rpcUrl: anvil.url, tokens: { USDT: usdt } });
    const gapNonce = await pendingNonce(hot.account.address);
    const [first, second] = [freshAddress(), freshAddress()];
    // Signed at the gap's nonce and then given back (refused, never sent): the one after it went out.
    const givenBack = await sender.sign(hot.signingKey, { currency: "ETH", toAddress: first, amountMinor: 5n }, { inFlight: [] });
    const above = await sender.sign(hot.signingKey, { currency: "ETH", toAddress: second, amountMinor: 7n }, { inFlight: [givenBack] });
    expect([givenBack.consumes.nonce, above.consumes.nonce]).toEqual([gapNonce, gapNonce + 1]);
    expect(await sender.broadcast(above)).toEqual({ kind: "accepted" });
    await clients.testClient.mine({ blocks: 1 });
    expect((await sender.getTransaction(above.txid)).state).toBe("pending"); // waits behind the gap

    const filling = await sender.sign(hot.signingKey, { currency: "ETH", toAddress: first, amountMinor: 5n }, { inFlight: [above] });
    expect(filling.consumes.nonce).toBe(gapNonce);
    // And the next one after that goes above every nonce in flight.
    const next = await sender.sign(hot.signingKey, { currency: "ETH", toAddress: second, amountMinor: 1n }, { inFlight: [above, filling] });
    expect(next.consumes.nonce).toBe(gapNonce + 2);
    expect(await sender.broadcast(filling)).toEqual({ kind: "accepted" });
    await clients.publicClient.waitForTransactionReceipt({ hash: above.txid as Hash });
    expect((await sender.getTransaction(filling.txid)).state).toBe("confirmed");
    expect(await clients.publicClient.getBalance({ address: first })).toBe(5n);
    expect(await clients.publicClient.getBalance({ address: second })).toBe(7n);
  });

  test("a token transfer above the balance is refused before signing: non-retryable, no nonce or fee spent", async () => {
    const sender = senderFor();
    const transfer: OutgoingTransfer = { currency: "USDT", toAddress: freshAddress(), amountMinor: 10n * HOT_USDT };
    const nonceBefore = await pendingNonce(hot.account.address);
    const ethBefore = await clients.publicClient.getBalance({ address: hot.account.address });

    const error = await rejection(sender.send(hot.signingKey, transfer));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/refused/);
    expect((await rejection(sender.estimateFee(hot.signingKey, transfer))).retryable).toBe(false);
    expect(await pendingNonce(hot.account.address)).toBe(nonceBefore);
    expect(await clients.publicClient.getBalance({ address: hot.account.address })).toBe(ethBefore);
    // The nonce was not consumed: the next payout uses it.
    const { txid } = await sender.send(hot.signingKey, { currency: "ETH", toAddress: freshAddress(), amountMinor: 1n });
    expect((await clients.publicClient.getTransaction({ hash: txid as Hash })).nonce).toBe(nonceBefore);
  });

  test("a token whose contract has no code on the node is refused before signing: such a transfer would succeed and move nothing", async () => {
    // A contract address of another chain (or a mistyped override): an account without code here.
    const noCode = freshAddress();
    const sender = senderFor({ tokens: { USDT: noCode } });
    const transfer: OutgoingTransfer = { currency: "USDT", toAddress: freshAddress(), amountMinor: 1_000_000n };
    const nonceBefore = await pendingNonce(hot.account.address);
    for (const attempt of [() => sender.send(hot.signingKey, transfer), () => sender.estimateFee(hot.signingKey, transfer)]) {
      const error = await rejection(attempt());
      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(/has no code/);
    }
    expect(await pendingNonce(hot.account.address)).toBe(nonceBefore);
    // With the deployed contract's address the same transfer goes.
    const deployed = senderFor();
    const { txid } = await deployed.send(hot.signingKey, transfer);
    expect((await clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash })).status).toBe("success");
  });

  test("a native payout above the balance is refused: non-retryable", async () => {
    const poorKey = freshKey();
    const error = await rejection(senderFor().send(poorKey, { currency: "ETH", toAddress: freshAddress(), amountMinor: 1n }));
    expect(error.retryable).toBe(false);
  });

  test("a transaction that reverted on chain is reported failed", async () => {
    const sender = senderFor();
    // Sent with a fixed gas limit so nothing estimates (and refuses) it first.
    const hash = await clients.walletClient.sendTransaction({
      to: usdt,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [freshAddress(), 100n * HOT_USDT] }),
      gas: 100_000n,
    });
    const receipt = await clients.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("reverted");
    // Reverted, yet its gas was spent: the fee is reported to be booked.
    expect(await sender.getTransaction(hash)).toEqual({
      state: "failed",
      confirmations: 1,
      blockHeight: Number(receipt.blockNumber),
      feeMinor: receipt.gasUsed * receipt.effectiveGasPrice,
    });
  });

  test("an unknown transaction is unknown; a malformed id is refused", async () => {
    const sender = senderFor();
    expect(await sender.getTransaction(`0x${"42".repeat(32)}`)).toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
    expect((await rejection(sender.getTransaction("0x1234"))).retryable).toBe(false);
  });

  describe("refused before anything is signed or sent", () => {
    // A sender on a closed port: any RPC attempt would give a retryable error instead.
    let offline: ReturnType<typeof senderFor>;
    beforeAll(async () => {
      offline = withSending(createEvmSender({ network: "ethereum", rpcUrl: `http://127.0.0.1:${await findFreePort()}`, retry: { count: 0, delayMs: 0 } }));
    });

    const recipient = devAccount(5).account.address;
    const cases: [string, SigningKey, OutgoingTransfer][] = [
      ["a Tron address", hot.signingKey, { currency: "ETH", toAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", amountMinor: 1n }],
      ["a Bitcoin address", hot.signingKey, { currency: "USDT", toAddress: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", amountMinor: 1n }],
      ["a truncated address", hot.signingKey, { currency: "ETH", toAddress: recipient.slice(0, 40), amountMinor: 1n }],
      ["a checksum typo", hot.signingKey, { currency: "ETH", toAddress: flipCase(recipient), amountMinor: 1n }],
      ["a currency not on the network", hot.signingKey, { currency: "TRX", toAddress: recipient, amountMinor: 1n }],
      ["a zero amount", hot.signingKey, { currency: "ETH", toAddress: recipient, amountMinor: 0n }],
      ["a negative amount", hot.signingKey, { currency: "USDT", toAddress: recipient, amountMinor: -5n }],
      ["a key that is not the address's", { ...hot.signingKey, address: devAccount(3).account.address }, { currency: "ETH", toAddress: recipient, amountMinor: 1n }],
      ["a key of the wrong length", { ...hot.signingKey, privateKey: hot.signingKey.privateKey.slice(1) }, { currency: "ETH", toAddress: recipient, amountMinor: 1n }],
    ];

    test.each(cases)("%s", async (_name, key, transfer) => {
      const nonceBefore = await pendingNonce(hot.account.address);
      expect((await rejection(offline.send(key, transfer))).retryable).toBe(false);
      expect((await rejection(senderFor().send(key, transfer))).retryable).toBe(false);
      expect(await pendingNonce(hot.account.address)).toBe(nonceBefore);
    });

    test("the address check is the catalogue's", () => {
      expect(validateAddress("ethereum", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toEqual({ ok: false, reason: "wrong_network" });
      expect(validateAddress("ethereum", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")).toEqual({ ok: false, reason: "wrong_network" });
    });
  });

  describe("a chain without EIP-1559 (anvil --hardfork berlin)", () => {
    let legacy: Anvil;
    beforeAll(async () => {
      legacy = await startAnvil(["--hardfork", "berlin"]);
    });
    afterAll(async () => {
      await legacy?.stop();
    });

    test("pays with a legacy gas price, and the estimate is gas × gas price", async () => {
      const legacyClients = anvilClients(legacy.url);
      expect((await legacyClients.publicClient.getBlock()).baseFeePerGas).toBeNull();
      const sender = withSending(createEvmSender({ network: "polygon", rpcUrl: legacy.url }));
      const recipient = freshAddress();
      const estimate = await sender.estimateFee(hot.signingKey, { currency: "POL", toAddress: recipient, amountMinor: 99n });
      const { txid } = await sender.send(hot.signingKey, { currency: "POL", toAddress: recipient, amountMinor: 99n });
      const receipt = await legacyClients.publicClient.waitForTransactionReceipt({ hash: txid as Hash });
      expect(receipt.type).toBe("legacy");
      expect(estimate).toEqual({ feeMinor: receipt.gasUsed * receipt.effectiveGasPrice, feeCurrency: "POL" });
      expect(await legacyClients.publicClient.getBalance({ address: recipient })).toBe(99n);
    });
  });

  describe("a broadcast whose answer is lost", () => {
    const NO_RETRY = { count: 0, delayMs: 0 };

    test("when the node got it, the payout is sent (found by its hash)", async () => {
      const proxy = await startRpcProxy(anvil.url, (method) => (method === "eth_sendRawTransaction" ? { kind: "forward-then-drop" } : { kind: "forward" }));
      try {
        const recipient = freshAddress();
        const { txid } = await senderFor({ rpcUrl: proxy.url, retry: NO_RETRY }).send(hot.signingKey, { currency: "ETH", toAddress: recipient, amountMinor: 11n });
        await clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash });
        expect(await clients.publicClient.getBalance({ address: recipient })).toBe(11n);
      } finally {
        await proxy.stop();
      }
    });

    test("a retried broadcast that the node already has counts as sent, once", async () => {
      // First attempt reaches the node but its answer is lost; viem resends the same bytes.
      let attempts = 0;
      const proxy = await startRpcProxy(anvil.url, (method) => {
        if (method !== "eth_sendRawTransaction") return { kind: "forward" };
        attempts++;
        return attempts === 1 ? { kind: "forward-then-drop" } : { kind: "forward" };
      });
      try {
        await clients.testClient.setAutomine(false);
        const recipient = freshAddress();
        const { txid } = await senderFor({ rpcUrl: proxy.url, retry: { count: 2, delayMs: 10 } }).send(hot.signingKey, { currency: "ETH", toAddress: recipient, amountMinor: 12n });
        expect(attempts).toBe(2);
        await clients.testClient.mine({ blocks: 1 });
        await clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash });
        expect(await clients.publicClient.getBalance({ address: recipient })).toBe(12n);
      } finally {
        await clients.testClient.setAutomine(true);
        await proxy.stop();
      }
    });

    test("when the node never got it, the broadcast is uncertain; the same bytes sent again spend one nonce", async () => {
      const proxy = await startRpcProxy(anvil.url, (method) => (method === "eth_sendRawTransaction" ? { kind: "drop" } : { kind: "forward" }));
      try {
        const nonceBefore = await pendingNonce(hot.account.address);
        const dark = createEvmSender({ network: "ethereum", rpcUrl: proxy.url, tokens: { USDT: usdt }, retry: NO_RETRY });
        const recipient = freshAddress();
        const signed = await dark.sign(hot.signingKey, { currency: "ETH", toAddress: recipient, amountMinor: 13n }, { inFlight: [] });
        expect(signed.consumes).toEqual({ nonce: nonceBefore, signedAtHeight: Number(await clients.publicClient.getBlockNumber()) });
        expect(await dark.broadcast(signed)).toMatchObject({ kind: "uncertain" });
        const healthy = createEvmSender({ network: "ethereum", rpcUrl: anvil.url, tokens: { USDT: usdt } });
        expect(await healthy.getTransaction(signed.txid)).toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
        // Its nonce is free: it can still land, so only these bytes may go out.
        expect(await healthy.canStillLand(signed, hot.signingKey)).toBe(true);
        // The next signing, told what is in flight, takes the next nonce.
        const next = await healthy.sign(hot.signingKey, { currency: "ETH", toAddress: freshAddress(), amountMinor: 1n }, { inFlight: [signed] });
        expect(next.consumes.nonce).toBe(nonceBefore + 1);
        expect(await healthy.broadcast(signed)).toEqual({ kind: "accepted" });
        expect(await healthy.broadcast(signed)).toEqual({ kind: "accepted" }); // again: the same transaction
        await clients.publicClient.waitForTransactionReceipt({ hash: signed.txid as Hash });
        expect(await clients.publicClient.getBalance({ address: recipient })).toBe(13n);
        expect(await clients.publicClient.getTransactionCount({ address: hot.account.address, blockTag: "latest" })).toBe(nonceBefore + 1);
      } finally {
        await proxy.stop();
      }
    });

    test("a withSending send whose broadcast is lost throws BroadcastUncertainError with the txid", async () => {
      const proxy = await startRpcProxy(anvil.url, (method) => (method === "eth_sendRawTransaction" ? { kind: "drop" } : { kind: "forward" }));
      try {
        const error = await rejection(senderFor({ rpcUrl: proxy.url, retry: NO_RETRY }).send(hot.signingKey, { currency: "ETH", toAddress: freshAddress(), amountMinor: 13n }));
        expect(error).toBeInstanceOf(BroadcastUncertainError);
        expect(error.retryable).toBe(true);
        expect((error as BroadcastUncertainError).txid).toMatch(/^0x[0-9a-f]{64}$/);
      } finally {
        await proxy.stop();
      }
    });
  });

  test("a signed transaction whose nonce another transaction took can never land, and its broadcast is refused for good", async () => {
    const sender = createEvmSender({ network: "ethereum", rpcUrl: anvil.url, tokens: { USDT: usdt } });
    const nonce = await pendingNonce(hot.account.address);
    const stale = await sender.sign(hot.signingKey, { currency: "ETH", toAddress: freshAddress(), amountMinor: 2n }, { inFlight: [] });
    expect(await sender.canStillLand(stale, hot.signingKey)).toBe(true);
    // Signed without knowing of it (as a second, careless wallet would): the same nonce, mined.
    const other = await sender.sign(hot.signingKey, { currency: "ETH", toAddress: freshAddress(), amountMinor: 3n }, { inFlight: [] });
    expect(other.consumes.nonce).toBe(nonce);
    expect(await sender.broadcast(other)).toEqual({ kind: "accepted" });
    await clients.publicClient.waitForTransactionReceipt({ hash: other.txid as Hash });
    // One block deep is not final (ethereum's 12 confirmations): a reorganisation could undo it.
    expect(await sender.canStillLand(stale, hot.signingKey)).toBe(true);
    await clients.testClient.mine({ blocks: 11 });
    expect(await sender.canStillLand(stale, hot.signingKey)).toBe(false);
    expect(await sender.canStillLand(other, hot.signingKey)).toBe(true); // mined: the block that used the nonce holds it
    expect(await sender.broadcast(stale)).toMatchObject({ kind: "rejected", retryable: false });
  });

  describe("balances", () => {
    test("reads the coin and the token exactly, after the transfers in and out that made them", async () => {
      const sender = senderFor();
      const wallet = freshKey();
      const funding = await Promise.all([
        sender.send(hot.signingKey, { currency: "ETH", toAddress: wallet.address, amountMinor: parseEther("2") }),
        sender.send(hot.signingKey, { currency: "USDT", toAddress: wallet.address, amountMinor: 40_000_000n }),
      ]);
      await Promise.all(funding.map(({ txid }) => clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash })));
      expect(await sender.getBalance(wallet.address, "ETH")).toBe(parseEther("2"));
      expect(await sender.getBalance(wallet.address, "USDT")).toBe(40_000_000n);
      // The catalogue's USDC contract has no code on anvil: nothing is held there.
      expect(await sender.getBalance(wallet.address, "USDC")).toBe(0n);

      const recipient = freshAddress();
      const paid = [
        await sender.send(wallet, { currency: "ETH", toAddress: recipient, amountMinor: parseEther("0.5") }),
        await sender.send(wallet, { currency: "USDT", toAddress: recipient, amountMinor: 15_000_001n }),
      ];
      const receipts = await Promise.all(paid.map(({ txid }) => clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash })));
      const fees = receipts.reduce((sum, receipt) => sum + receipt.gasUsed * receipt.effectiveGasPrice, 0n);
      expect(await sender.getBalance(wallet.address, "ETH")).toBe(parseEther("1.5") - fees);
      expect(await sender.getBalance(wallet.address.toLowerCase(), "USDT")).toBe(24_999_999n);
      expect(await sender.getBalance(recipient, "ETH")).toBe(parseEther("0.5"));
      expect(await sender.getBalance(recipient, "USDT")).toBe(15_000_001n);
      expect(await sender.getBalance(freshAddress(), "ETH")).toBe(0n);
    });

    test("asks the node once and fails retryably at the deadline, though the sender's client retries", async () => {
      const proxy = await startRpcProxy(anvil.url, () => ({ kind: "hang" }));
      try {
        const sender = senderFor({ rpcUrl: proxy.url, retry: { count: 2, delayMs: 10 } });
        const started = Date.now();
        const error = await rejection(sender.getBalance(hot.account.address, "ETH", { timeoutMs: 300 }));
        expect(error.retryable).toBe(true);
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(proxy.methods).toEqual(["eth_getBalance"]);
      } finally {
        await proxy.stop();
      }
    });

    test("refuses a currency the network does not carry and an address of another family, for good", async () => {
      const offline = createEvmSender({ network: "ethereum", rpcUrl: `http://127.0.0.1:${await findFreePort()}` });
      expect((await rejection(offline.getBalance(hot.account.address, "TRX"))).retryable).toBe(false);
      expect((await rejection(offline.getBalance("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "ETH"))).retryable).toBe(false);
      expect((await rejection(offline.getBalance(flipCase(hot.account.address), "ETH"))).retryable).toBe(false);
      // The node is asked only for what can be read: a closed port fails retryably.
      expect((await rejection(offline.getBalance(hot.account.address, "ETH", { timeoutMs: 1_000 }))).retryable).toBe(true);
    });
  });

  test("a lower-case recipient is paid at its checksummed address", async () => {
    const recipient = freshAddress();
    const { txid } = await senderFor().send(hot.signingKey, { currency: "ETH", toAddress: recipient.toLowerCase(), amountMinor: 5n });
    await clients.publicClient.waitForTransactionReceipt({ hash: txid as Hash });
    expect(await clients.publicClient.getBalance({ address: recipient })).toBe(5n);
  });
});

/** Flips the case of the first letter of an address's hex, breaking its EIP-55 checksum. */
function flipCase(address: string): string {
  const index = address.slice(2).search(/[a-fA-F]/) + 2;
  const letter = address[index];
  const flipped = letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase();
  return address.slice(0, index) + flipped + address.slice(index + 1);
}

/** A key of an address that holds nothing. */
function freshKey(): SigningKey {
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  return { address: account.address, privateKey: hexToBytes(privateKey), publicKey: hexToBytes(account.publicKey) };
}
