import { erc20Abi, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createEvmAdapter, type EvmAdapter } from "@/lib/chains/evm/evm-adapter";
import { findReorgDepth, type KnownBlock } from "@/lib/chains/evm/reorg";
import { anvilClients, callAnvil, startAnvil, type Anvil } from "@/lib/chains/evm/testing/anvil";
import { deployTestToken } from "@/lib/chains/evm/testing/test-token";

let anvil: Anvil;
let clients: ReturnType<typeof anvilClients>;
let usdt: Address;
let adapter: EvmAdapter;

beforeAll(async () => {
  anvil = await startAnvil();
  clients = anvilClients(anvil.url, 0);
  usdt = (await deployTestToken(clients, 1_000_000_000n)).address;
  adapter = createEvmAdapter({ network: "ethereum", rpcUrl: anvil.url, tokens: { USDT: usdt } });
});

afterAll(async () => {
  await anvil?.stop();
});

/** The blocks a watcher would have recorded: every height from `from` to the tip, with its hash now. */
async function recordBlocks(from: number): Promise<KnownBlock[]> {
  const tip = await adapter.getTip();
  const blocks: KnownBlock[] = [];
  for (let height = from; height <= tip.height; height++) blocks.push({ height, hash: (await adapter.getBlockHash(height))! });
  return blocks;
}

describe("reorganisations on anvil", () => {
  test("a dropped block is found at its height, and a rescan no longer reports its transfers", async () => {
    await clients.testClient.mine({ blocks: 2 });
    const base = await adapter.getTip();
    const snapshot = await clients.testClient.snapshot();

    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const nativeHash = await clients.walletClient.sendTransaction({ to: recipient, value: 777n });
    const native = await clients.publicClient.waitForTransactionReceipt({ hash: nativeHash });
    const tokenHash = await clients.walletClient.writeContract({ address: usdt, abi: erc20Abi, functionName: "transfer", args: [recipient, 9_000_000n] });
    await clients.publicClient.waitForTransactionReceipt({ hash: tokenHash });
    await clients.testClient.mine({ blocks: 2 });

    const seen = await adapter.scanTransfers({ afterHeight: base.height });
    expect(seen.map((transfer) => [transfer.txid, transfer.currency, transfer.amountMinor])).toEqual([
      [nativeHash, "ETH", 777n],
      [tokenHash, "USDT", 9_000_000n],
    ]);
    const known = await recordBlocks(base.height);
    expect(await findReorgDepth(adapter, known)).toBeNull();

    // Drop every block after `base`: first the chain is shorter than the records...
    expect(await clients.testClient.revert({ id: snapshot })).toBeUndefined();
    const shorter = await findReorgDepth(adapter, known);
    expect(shorter?.fromHeight).toBe(Number(native.blockNumber));
    expect(shorter?.orphaned).toEqual(known.filter((block) => block.height > base.height));

    // ...then a competing, longer chain is built at the same heights.
    await clients.testClient.mine({ blocks: 6 });
    const replaced = await findReorgDepth(adapter, known);
    expect(replaced).toEqual({ fromHeight: base.height + 1, orphaned: known.filter((block) => block.height > base.height) });
    expect(await adapter.getBlockHash(base.height)).toBe(base.hash);

    const rescanned = await adapter.scanTransfers({ afterHeight: replaced!.fromHeight - 1 });
    expect(rescanned.filter((transfer) => transfer.toAddress === recipient)).toEqual([]);
    expect(await clients.publicClient.getBalance({ address: recipient })).toBe(0n);
  });

  test("anvil_reorg replacing the last blocks is detected from the first replaced height", async () => {
    await clients.testClient.mine({ blocks: 3 });
    const before = await adapter.getTip();
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    // Two blocks with a transfer each (automine), so their empty replacements cannot hash the same.
    for (const value of [1n, 2n]) {
      await clients.publicClient.waitForTransactionReceipt({ hash: await clients.walletClient.sendTransaction({ to: recipient, value }) });
    }
    const tip = await adapter.getTip();
    expect(tip.height).toBe(before.height + 2);
    const known = await recordBlocks(tip.height - 4);

    await callAnvil(anvil.url, "anvil_reorg", [2, []]);
    expect(await findReorgDepth(adapter, known)).toEqual({ fromHeight: tip.height - 1, orphaned: known.slice(-2) });
    expect(await adapter.scanTransfers({ afterHeight: before.height })).toEqual([]);
  });
});
