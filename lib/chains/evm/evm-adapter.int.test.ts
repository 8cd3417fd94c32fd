import { erc20Abi, parseEther, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ChainError } from "@/lib/chains/types";
import { createEvmAdapter, TOKEN_POSITION_OFFSET, type EvmAdapterOptions } from "@/lib/chains/evm/evm-adapter";
import { anvilClients, devAccount, startAnvil, type Anvil } from "@/lib/chains/evm/testing/anvil";
import { startRpcProxy } from "@/lib/chains/testing/rpc-proxy";
import { deployTestToken } from "@/lib/chains/evm/testing/test-token";

let anvil: Anvil;
let clients: ReturnType<typeof anvilClients>;
let usdt: Address;
const payer = devAccount(0).account.address;

beforeAll(async () => {
  anvil = await startAnvil();
  clients = anvilClients(anvil.url, 0);
  usdt = (await deployTestToken(clients, 1_000_000_000_000n)).address;
});

afterAll(async () => {
  await anvil?.stop();
});

function adapterFor(options: Partial<EvmAdapterOptions> = {}) {
  return createEvmAdapter({ network: "ethereum", rpcUrl: anvil.url, tokens: { USDT: usdt }, ...options });
}

function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

async function sendNative(to: Address, value: bigint) {
  const hash = await clients.walletClient.sendTransaction({ to, value });
  return clients.publicClient.waitForTransactionReceipt({ hash });
}

async function sendToken(token: Address, to: Address, amount: bigint) {
  const hash = await clients.walletClient.writeContract({ address: token, abi: erc20Abi, functionName: "transfer", args: [to, amount] });
  return clients.publicClient.waitForTransactionReceipt({ hash });
}

describe("evm adapter on anvil", () => {
  test("reports the node's tip, block hashes and chain id", async () => {
    const adapter = adapterFor();
    const tip = await adapter.getTip();
    const block = await clients.publicClient.getBlock({ blockNumber: BigInt(tip.height) });
    expect(tip).toEqual({ height: Number(block.number), hash: block.hash });
    expect(await adapter.getBlockHash(tip.height)).toBe(block.hash);
    expect(await adapter.getBlockHash(0)).toBe((await clients.publicClient.getBlock({ blockNumber: 0n })).hash);
    expect(await adapter.getBlockHash(tip.height + 100)).toBeNull();
    expect(await adapter.getBlockHash(-1)).toBeNull();
    expect(await adapter.chainId()).toBe(31337);
    expect(adapter).toMatchObject({ network: "ethereum", source: "rpc", capabilities: { hasMemo: false, knowsPayerAddress: true } });
  });

  test("a native deposit is reported once per scan of its block, with amount, payer and position", async () => {
    const adapter = adapterFor();
    const before = await adapter.getTip();
    const recipient = freshAddress();
    const receipt = await sendNative(recipient, parseEther("1.5"));

    const transfers = await adapter.scanTransfers({ afterHeight: before.height });
    expect(transfers).toEqual([
      {
        network: "ethereum",
        currency: "ETH",
        txid: receipt.transactionHash,
        position: receipt.transactionIndex,
        toAddress: recipient,
        fromAddress: payer,
        amountMinor: 1_500_000_000_000_000_000n,
        blockHeight: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
      },
    ]);

    const after = await adapter.getTip();
    expect(await adapter.scanTransfers({ afterHeight: after.height })).toEqual([]);
    // The watcher dedupes by (txid, position): a repeated range reports the same transfer again.
    expect(await adapter.scanTransfers({ afterHeight: before.height })).toEqual(transfers);
  });

  test("a token deposit is reported in the catalogue symbol with raw units, above the transaction positions", async () => {
    const adapter = adapterFor();
    const before = await adapter.getTip();
    const recipient = freshAddress();
    const receipt = await sendToken(usdt, recipient, 25_000_000n);
    const transferLog = receipt.logs.find((log) => log.address.toLowerCase() === usdt.toLowerCase());

    expect(await adapter.scanTransfers({ afterHeight: before.height })).toEqual([
      {
        network: "ethereum",
        currency: "USDT",
        txid: receipt.transactionHash,
        position: TOKEN_POSITION_OFFSET + transferLog!.logIndex,
        toAddress: recipient,
        fromAddress: payer,
        amountMinor: 25_000_000n,
        blockHeight: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
      },
    ]);
  });

  test("Transfer logs of contracts outside the catalogue, zero values and contract creations are not reported", async () => {
    const adapter = adapterFor();
    const before = await adapter.getTip();
    const other = await deployTestToken(clients, 1_000n);
    await sendToken(other.address, freshAddress(), 10n);
    await sendToken(usdt, freshAddress(), 0n);
    await sendNative(freshAddress(), 0n);
    expect(await adapter.scanTransfers({ afterHeight: before.height })).toEqual([]);
  });

  test("a range longer than one chunk is read whole, in block order", async () => {
    const adapter = adapterFor({ blocksPerChunk: 2 });
    const before = await adapter.getTip();
    const recipients = [freshAddress(), freshAddress(), freshAddress()];
    const receipts = [];
    for (const [index, recipient] of recipients.entries()) {
      receipts.push(await sendNative(recipient, BigInt(index + 1)));
      await clients.testClient.mine({ blocks: 2 });
      receipts.push(await sendToken(usdt, recipient, BigInt(index + 1)));
    }
    const transfers = await adapter.scanTransfers({ afterHeight: before.height });
    expect(transfers.map((transfer) => [transfer.txid, transfer.currency, transfer.toAddress, transfer.amountMinor])).toEqual([
      [receipts[0].transactionHash, "ETH", recipients[0], 1n],
      [receipts[1].transactionHash, "USDT", recipients[0], 1n],
      [receipts[2].transactionHash, "ETH", recipients[1], 2n],
      [receipts[3].transactionHash, "USDT", recipients[1], 2n],
      [receipts[4].transactionHash, "ETH", recipients[2], 3n],
      [receipts[5].transactionHash, "USDT", recipients[2], 3n],
    ]);
  });

  test("a scan reaches the highest tip reported, even when the node answering it lags", async () => {
    // eth_blockNumber (the scan's end) answers from a node still at the block before the deposit.
    let laggingHeight = 0;
    const lagging = await startRpcProxy(anvil.url, (method) =>
      method === "eth_blockNumber" ? { kind: "answer", result: `0x${laggingHeight.toString(16)}` } : { kind: "forward" },
    );
    try {
      const adapter = adapterFor({ rpcUrl: lagging.url });
      const before = await adapter.getTip();
      const recipient = freshAddress();
      await sendNative(recipient, 3n);
      await clients.testClient.mine({ blocks: 2 });
      await adapter.getTip();
      laggingHeight = before.height;
      const transfers = await adapter.scanTransfers({ afterHeight: before.height });
      expect(transfers.map((transfer) => transfer.toAddress)).toEqual([recipient]);
      expect(lagging.methods).toContain("eth_blockNumber");
    } finally {
      await lagging.stop();
    }
  });

  test("a node whose chain id is not the expected one is refused, not retried", async () => {
    const adapter = adapterFor({ expectedChainId: 1 });
    const error = await adapter.getTip().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect(error).toMatchObject({ retryable: false });
    await expect(adapter.scanTransfers({ afterHeight: 0 })).rejects.toMatchObject({ retryable: false });
  });
});
