import { z } from "zod";
import type { NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import { getUtxoParams, type UtxoParams } from "@/lib/chains/addresses/utxo-params";
import { ChainError, type ChainAdapter, type ObservedTransfer } from "../types";
import { coinAmountSchema, createChainResolver, formatOutputAddress, getUtxoNetwork, hashSchema, type UtxoNetwork } from "./utxo-network";
import { createUtxoRpc, UtxoRpcError, type UtxoRpc } from "./utxo-rpc";
import type { FetchFunction } from "../rpc-endpoints";

export interface UtxoAdapterOptions {
  network: NetworkId;
  /** `http://user:password@host:port` of bitcoind, litecoind or dogecoind. */
  rpcUrl: string;
  /** The fetch requests go through (the network's endpoint pool, with failover); the global fetch when unset. */
  fetch?: FetchFunction;
  /** Per-call timeout in ms. Default 30 000. */
  timeoutMs?: number;
}

/** The watching half of a UTXO network, plus the chain its node runs. */
export type UtxoAdapter = ChainAdapter & {
  /** What the node reports (`getblockchaininfo`), which selects the address encodings. */
  chain(): Promise<AddressChain>;
};

/** Mempool transactions fetched per HTTP request. */
const MEMPOOL_BATCH_SIZE = 100;

/** bitcoind's "Block height out of range", litecoind's and dogecoind's too. */
const RPC_INVALID_PARAMETER = -8;
/** "No such mempool or blockchain transaction". */
const RPC_INVALID_ADDRESS_OR_KEY = -5;

function transactionSchema(decimals: number) {
  return z.object({
    txid: hashSchema,
    vout: z.array(z.object({ n: z.number().int().nonnegative(), value: coinAmountSchema(decimals), scriptPubKey: z.object({ hex: z.string() }) })),
  });
}

type DecodedTransaction = z.infer<ReturnType<typeof transactionSchema>>;

function blockSchema(decimals: number) {
  return z.object({
    hash: hashSchema,
    height: z.number().int().nonnegative(),
    // Absent on the genesis block only.
    previousblockhash: hashSchema.optional(),
    tx: z.array(transactionSchema(decimals)),
  });
}

/** Every output of a transaction that pays an address, as transfers. */
function readTransfers(
  network: UtxoNetwork,
  params: UtxoParams,
  transaction: DecodedTransaction,
  block: { height: number; hash: string } | null,
): ObservedTransfer[] {
  const transfers: ObservedTransfer[] = [];
  for (const output of transaction.vout) {
    const toAddress = formatOutputAddress(params, Buffer.from(output.scriptPubKey.hex, "hex"));
    if (toAddress === null) continue;
    transfers.push({
      network: network.id,
      currency: network.symbol,
      txid: transaction.txid,
      position: output.n,
      toAddress,
      // spec: Payment — a UTXO transaction has no single payer.
      fromAddress: "",
      amountMinor: output.value,
      blockHeight: block?.height ?? null,
      blockHash: block?.hash ?? null,
    });
  }
  return transfers;
}

/**
 * The watching half of a UTXO network over its node's JSON-RPC: tip, block hashes, and every
 * output paying an address in the blocks after a height and in the mempool. Bitcoin, litecoin and
 * dogecoin share it; only the address parameters differ. Needs `getblock` verbosity 2 (bitcoind
 * 0.15+, litecoind 0.16+); `-txindex` is not needed here.
 */
export function createUtxoAdapter(options: UtxoAdapterOptions): UtxoAdapter {
  const network = getUtxoNetwork(options.network);
  const rpc = createUtxoRpc({ rpcUrl: options.rpcUrl, fetch: options.fetch, timeoutMs: options.timeoutMs });
  const chain = createChainResolver(rpc);
  const decodeTransaction = transactionSchema(network.decimals);
  const decodeBlock = blockSchema(network.decimals);
  // Mempool outputs by txid. A txid fixes its outputs, so each mempool transaction is fetched once
  // while it waits, not at every scan; entries leave with the transaction.
  const mempoolOutputs = new Map<string, ObservedTransfer[]>();

  async function readBlockHash(height: number): Promise<string | null> {
    try {
      return await rpc.call("getblockhash", [height], hashSchema);
    } catch (error) {
      if (error instanceof UtxoRpcError && error.nodeError?.code === RPC_INVALID_PARAMETER) return null;
      throw error;
    }
  }

  async function scanMempool(params: UtxoParams): Promise<ObservedTransfer[]> {
    const txids = await rpc.call("getrawmempool", [false], z.array(hashSchema));
    const missing = txids.filter((txid) => !mempoolOutputs.has(txid));
    for (let start = 0; start < missing.length; start += MEMPOOL_BATCH_SIZE) {
      const chunk = missing.slice(start, start + MEMPOOL_BATCH_SIZE);
      const answers = await rpc.callBatch("getrawtransaction", chunk.map((txid) => [txid, true]), decodeTransaction);
      answers.forEach((answer, index) => {
        if (answer.ok) mempoolOutputs.set(chunk[index], readTransfers(network, params, answer.value, null));
        // Mined or evicted since getrawmempool: the block scan or the next scan sees it.
        else if (answer.error.nodeError?.code !== RPC_INVALID_ADDRESS_OR_KEY) throw answer.error;
      });
    }
    const current = new Set(txids);
    for (const txid of mempoolOutputs.keys()) if (!current.has(txid)) mempoolOutputs.delete(txid);
    return txids.flatMap((txid) => mempoolOutputs.get(txid) ?? []);
  }

  async function scanBlocks(params: UtxoParams, afterHeight: number, tipHeight: number): Promise<ObservedTransfer[]> {
    const transfers: ObservedTransfer[] = [];
    let previousHash: string | null = null;
    for (let height = Math.max(0, afterHeight + 1); height <= tipHeight; height++) {
      const hash = await readBlockHash(height);
      const block = hash === null ? null : await rpc.call("getblock", [hash, 2], decodeBlock);
      // A reorganisation while we walk would mix two branches in one answer; the watcher retries
      // and then sees one consistent branch.
      const isConsistent = block !== null && block.height === height && (previousHash === null || block.previousblockhash === previousHash);
      if (!isConsistent) throw new ChainError(`The chain changed during the scan at height ${height}`, { retryable: true });
      for (const transaction of block.tx) transfers.push(...readTransfers(network, params, transaction, { height, hash: block.hash }));
      previousHash = block.hash;
    }
    return transfers;
  }

  return {
    network: network.id,
    source: "rpc",
    capabilities: { hasMemo: false, knowsPayerAddress: false },
    chain,

    async getTip() {
      // One call, so height and hash always describe the same block.
      const info = await rpc.call("getblockchaininfo", [], z.object({ blocks: z.number().int().nonnegative(), bestblockhash: hashSchema }));
      return { height: info.blocks, hash: info.bestblockhash };
    },

    getBlockHash: readBlockHash,

    async scanTransfers({ afterHeight }) {
      const params = getUtxoParams(network.id, await chain());
      // Mempool first, blocks second: a transaction mined in between then shows up twice (once
      // confirmed, kept below) instead of in neither answer.
      const mempool = await scanMempool(params);
      const tipHeight = await rpc.call("getblockcount", [], z.number().int().nonnegative());
      const confirmed = await scanBlocks(params, afterHeight, tipHeight);
      const confirmedKeys = new Set(confirmed.map((transfer) => `${transfer.txid}:${transfer.position}`));
      return [...confirmed, ...mempool.filter((transfer) => !confirmedKeys.has(`${transfer.txid}:${transfer.position}`))];
    },
  };
}
