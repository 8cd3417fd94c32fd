import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deriveAccountXpub, deriveDepositAddress, deriveMasterSeed } from "@/lib/chains/addresses";
import { ChainError, type ObservedTransfer } from "../types";
import { startLitecoind, type RegtestNode } from "./testing/litecoind";
import { startTestHttpServer } from "./testing/http-server";
import { createUtxoAdapter, type UtxoAdapter } from "./utxo-adapter";
import { createUtxoRpc, UtxoRpcError } from "./utxo-rpc";

const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const accountXpub = deriveAccountXpub(deriveMasterSeed(TEST_MNEMONIC), "litecoin", "regtest");

function depositAddress(index: number): string {
  return deriveDepositAddress({ network: "litecoin", accountXpub, index, chain: "regtest" }).address;
}

let node: RegtestNode;
let adapter: UtxoAdapter;

beforeAll(async () => {
  node = await startLitecoind();
  adapter = createUtxoAdapter({ network: "litecoin", rpcUrl: node.rpcUrl });
});

afterAll(async () => {
  await node?.stop();
});

/** Pays `amount` (decimal text, sent as a string so the node parses it exactly) from the node's wallet. */
function pay(address: string, amount: string): Promise<string> {
  return node.rpc.call("sendtoaddress", [address, amount], z.string());
}

/** The vout index the node itself reports for the output paying `address`. */
async function outputIndexOf(txid: string, address: string): Promise<number> {
  const transaction = await node.rpc.call(
    "getrawtransaction",
    [txid, true],
    z.object({ vout: z.array(z.object({ n: z.number(), scriptPubKey: z.object({ addresses: z.array(z.string()).optional() }) })) }),
  );
  const output = transaction.vout.find((candidate) => candidate.scriptPubKey.addresses?.includes(address));
  if (!output) throw new Error(`${txid} does not pay ${address}`);
  return output.n;
}

function paying(transfers: ObservedTransfer[], address: string): ObservedTransfer[] {
  return transfers.filter((transfer) => transfer.toAddress === address);
}

describe("createUtxoAdapter against litecoind -regtest", () => {
  it("reports the node's chain and tip", async () => {
    expect(await adapter.chain()).toBe("regtest");
    const tip = await adapter.getTip();
    expect(tip.height).toBeGreaterThanOrEqual(101);
    expect(tip.hash).toBe(await node.rpc.call("getbestblockhash", [], z.string()));
    expect(await adapter.getBlockHash(tip.height)).toBe(tip.hash);
    expect(await adapter.getBlockHash(tip.height + 1_000)).toBeNull();
  });

  it("sees a deposit in the mempool, then in its block, with the exact amount; rescans repeat it", async () => {
    const address = depositAddress(0);
    expect(address).toBe("rltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9puuzgkg");
    const start = await adapter.getTip();
    const txid = await pay(address, "1.23456789");
    const position = await outputIndexOf(txid, address);

    const pending = await adapter.scanTransfers({ afterHeight: start.height });
    expect(paying(pending, address)).toEqual([
      { network: "litecoin", currency: "LTC", txid, position, toAddress: address, fromAddress: "", amountMinor: 123_456_789n, blockHeight: null, blockHash: null },
    ]);

    const [blockHash] = await node.mine(1);
    const minedHeight = start.height + 1;
    const confirmed = await adapter.scanTransfers({ afterHeight: start.height });
    const expected = { network: "litecoin", currency: "LTC", txid, position, toAddress: address, fromAddress: "", amountMinor: 123_456_789n, blockHeight: minedHeight, blockHash };
    expect(paying(confirmed, address)).toEqual([expected]);
    // The block's coinbase pays the miner: every output paying an address is reported, not only ours.
    expect(confirmed.some((transfer) => transfer.toAddress === node.minerAddress && transfer.blockHeight === minedHeight)).toBe(true);

    expect(await adapter.scanTransfers({ afterHeight: minedHeight })).toEqual([]);
    // A rescan of the same range reports the same transfer; dropping repeats is the watcher's job.
    expect(paying(await adapter.scanTransfers({ afterHeight: start.height }), address)).toEqual([expected]);
  });

  it("follows a reorganisation: the block hash changes, the deposit returns to the mempool, reconsidering restores it", async () => {
    const address = depositAddress(1);
    const start = await adapter.getTip();
    const txid = await pay(address, "0.5");
    const [originalHash] = await node.mine(1);
    const height = start.height + 1;
    expect(paying(await adapter.scanTransfers({ afterHeight: start.height }), address)).toMatchObject([{ txid, blockHeight: height, blockHash: originalHash }]);

    await node.rpc.call("invalidateblock", [originalHash], z.null());
    expect(await adapter.getBlockHash(height)).toBeNull();
    expect(paying(await adapter.scanTransfers({ afterHeight: start.height }), address)).toMatchObject([{ txid, blockHeight: null, blockHash: null }]);

    // A competing block at the same height that leaves the deposit out.
    const { hash: competingHash } = await node.rpc.call("generateblock", [node.minerAddress, []], z.object({ hash: z.string() }));
    expect(await adapter.getBlockHash(height)).toBe(competingHash);
    expect(competingHash).not.toBe(originalHash);
    const afterReorg = paying(await adapter.scanTransfers({ afterHeight: start.height }), address);
    expect(afterReorg).toMatchObject([{ txid, blockHeight: null }]);

    await node.rpc.call("invalidateblock", [competingHash], z.null());
    await node.rpc.call("reconsiderblock", [originalHash], z.null());
    expect(await adapter.getBlockHash(height)).toBe(originalHash);
    expect(paying(await adapter.scanTransfers({ afterHeight: start.height }), address)).toMatchObject([{ txid, blockHeight: height, blockHash: originalHash }]);
    await node.rpc.call("reconsiderblock", [competingHash], z.null());
  });
});

describe("RPC failures become ChainErrors", () => {
  it("an answer that is not JSON is retryable", async () => {
    const server = await startTestHttpServer((_body, response) => response.end("<html>502 Bad Gateway</html>"));
    try {
      const broken = createUtxoAdapter({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${server.port}` });
      await expect(broken.getTip()).rejects.toMatchObject({ name: "UtxoRpcError", retryable: true, message: expect.stringMatching(/not JSON/) });
      await expect(broken.getTip()).rejects.toBeInstanceOf(ChainError);
    } finally {
      await server.close();
    }
  });

  it("JSON of the wrong shape is retryable", async () => {
    const server = await startTestHttpServer((_body, response) => response.end('{"result":{"blocks":"many"},"error":null,"id":1}'));
    try {
      const broken = createUtxoAdapter({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${server.port}` });
      await expect(broken.getTip()).rejects.toMatchObject({ retryable: true, message: expect.stringMatching(/unexpected shape/) });
    } finally {
      await server.close();
    }
  });

  it("a node that never answers times out, retryable", async () => {
    const server = await startTestHttpServer(() => undefined);
    try {
      const silent = createUtxoAdapter({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${server.port}`, timeoutMs: 300 });
      const started = Date.now();
      await expect(silent.scanTransfers({ afterHeight: 0 })).rejects.toMatchObject({ retryable: true, message: expect.stringMatching(/did not answer within 300 ms/) });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await server.close();
    }
  });

  it("a refused connection is retryable", async () => {
    const server = await startTestHttpServer(() => undefined);
    await server.close();
    const closed = createUtxoAdapter({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${server.port}` });
    await expect(closed.getTip()).rejects.toMatchObject({ retryable: true });
  });

  it("a wrong password is a ChainError that names the credentials, not the password", async () => {
    const wrong = createUtxoAdapter({ network: "litecoin", rpcUrl: `http://${node.user}:not-the-password@127.0.0.1:${node.rpcPort}` });
    const error = await wrong.getTip().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ChainError);
    expect(error).toMatchObject({ message: expect.stringMatching(/refused the RPC credentials \(HTTP 401\)/) });
    expect(String((error as Error).message)).not.toContain("not-the-password");
  });

  it("a scan refused because another scan runs on the node is retryable", async () => {
    const busy = await startTestHttpServer((body, response) => {
      const { id } = JSON.parse(body) as { id: number };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ result: null, error: { code: -8, message: 'Scan already in progress, use action "abort" or "status"' }, id }));
    });
    try {
      const rpc = createUtxoRpc({ rpcUrl: `http://u:p@127.0.0.1:${busy.port}` });
      await expect(rpc.call("scantxoutset", ["start", []], z.unknown())).rejects.toMatchObject({ retryable: true, nodeError: { code: -8 } });
    } finally {
      await busy.close();
    }
  });

  it("a call the node refuses for the caller's reason is not retryable", async () => {
    const rpc = createUtxoRpc({ rpcUrl: node.rpcUrl });
    const error = await rpc.call("getblock", ["00".repeat(32), 2], z.unknown()).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UtxoRpcError);
    expect(error).toMatchObject({ retryable: false, nodeError: { code: -5 } });
    await expect(rpc.call("nosuchmethod", [], z.unknown())).rejects.toMatchObject({ retryable: false, nodeError: { code: -32601 } });
  });
});
