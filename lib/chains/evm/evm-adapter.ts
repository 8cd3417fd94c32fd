import { getAddress } from "viem";
import type { ChainAdapter, ChainTip, ObservedTransfer } from "@/lib/chains/types";
import { ChainError } from "@/lib/chains/types";
import { resolveEvmNetwork, type EvmNetwork } from "@/lib/chains/evm/evm-network";
import {
  blockHeaderSchema,
  blockWithTransactionsSchema,
  createEvmRpc,
  logSchema,
  smallQuantitySchema,
  toBlockTag,
  type EvmRetryOptions,
  type EvmRpc,
} from "@/lib/chains/evm/evm-rpc";
import { createVerifiedChainId } from "@/lib/chains/evm/verified-chain-id";
import type { FetchFunction } from "@/lib/chains/rpc-endpoints";
import { mapWithConcurrency } from "@/lib/chains/map-with-concurrency";

/** keccak256("Transfer(address,address,uint256)"), topic 0 of every ERC-20 transfer. */
export const ERC20_TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/** Token transfer positions start here, above any transaction index, so (txid, position) never collides. */
export const TOKEN_POSITION_OFFSET = 1_000_000;

export interface EvmAdapterOptions {
  /** A catalogue EVM network id: ethereum, bsc, polygon, arbitrum, base, optimism, avalanche. */
  network: string;
  rpcUrl: string;
  /** The fetch requests go through (the network's endpoint pool, with failover); the global fetch when unset. */
  fetch?: FetchFunction;
  /** Token contracts by catalogue symbol, replacing the catalogue's (a token deployed on a test node). */
  tokens?: Readonly<Record<string, string>>;
  /** Per-request timeout in ms. Default 10 000. */
  timeoutMs?: number;
  retry?: EvmRetryOptions;
  /** When set, the node must report exactly this chain id. */
  expectedChainId?: number;
  /** Blocks read per eth_getLogs call and per batch of block reads. Default 500. */
  blocksPerChunk?: number;
}

export type EvmAdapter = ChainAdapter & {
  /** The EIP-155 chain id the node reports (31337 on anvil). */
  chainId(): Promise<number>;
};

/** Blocks fetched at once within a chunk. */
const BLOCK_FETCH_CONCURRENCY = 8;

/**
 * The watching half of an EVM network over JSON-RPC: native coin transfers (top-level transactions
 * with a value) and ERC-20 `Transfer` logs of the network's catalogue tokens, mined blocks only.
 * Every RPC failure is a retryable ChainError; a scan returns all of its range or throws.
 */
export function createEvmAdapter(options: EvmAdapterOptions): EvmAdapter {
  const network = resolveEvmNetwork(options.network, options.tokens);
  const rpc = createEvmRpc(options);
  const blocksPerChunk = options.blocksPerChunk ?? 500;
  if (!Number.isSafeInteger(blocksPerChunk) || blocksPerChunk < 1) throw new ChainError("blocksPerChunk must be a positive integer", { retryable: false });
  const tokenByContract = new Map(network.tokens.map((token) => [token.contract, token]));
  // The highest tip this adapter has reported: a scan never stops below it, even if the node
  // answering the scan (behind a load balancer) lags, because the watcher moves its cursor there.
  // Until a lagging node catches up the scan throws (retryable) rather than leave a gap.
  let highestTipSeen = -1;
  const chainId = createVerifiedChainId(rpc, network, options.expectedChainId);

  async function getTip(): Promise<ChainTip> {
    await chainId();
    const block = await rpc.call("eth_getBlockByNumber", ["latest", false], blockHeaderSchema.nullable());
    if (!block) throw new ChainError(`${network.id}: the node has no latest block`, { retryable: true });
    highestTipSeen = Math.max(highestTipSeen, block.number);
    return { height: block.number, hash: block.hash };
  }

  async function getBlockHash(height: number): Promise<string | null> {
    if (!Number.isSafeInteger(height) || height < 0) return null;
    await chainId();
    const block = await rpc.call("eth_getBlockByNumber", [toBlockTag(height), false], blockHeaderSchema.nullable());
    if (block && block.number !== height) throw new ChainError(`${network.id}: asked for block ${height}, got ${block.number}`, { retryable: true });
    return block?.hash ?? null;
  }

  async function scanTransfers({ afterHeight }: { afterHeight: number }): Promise<ObservedTransfer[]> {
    await chainId();
    const latest = await rpc.call("eth_blockNumber", [], smallQuantitySchema);
    const lastHeight = Math.max(latest, highestTipSeen);
    const transfers: ObservedTransfer[] = [];
    // The whole range, chunk by chunk: the watcher moves its cursor to the tip after this call.
    for (let start = Math.max(afterHeight + 1, 0); start <= lastHeight; start += blocksPerChunk) {
      const end = Math.min(start + blocksPerChunk - 1, lastHeight);
      transfers.push(...(await scanChunk(rpc, network, tokenByContract, start, end)));
    }
    return transfers;
  }

  return {
    network: network.id,
    source: "rpc",
    capabilities: { hasMemo: false, knowsPayerAddress: true },
    chainId,
    getTip,
    getBlockHash,
    scanTransfers,
  };
}

async function scanChunk(
  rpc: EvmRpc,
  network: EvmNetwork,
  tokenByContract: ReadonlyMap<string, EvmNetwork["tokens"][number]>,
  start: number,
  end: number,
): Promise<ObservedTransfer[]> {
  const heights = Array.from({ length: end - start + 1 }, (_, index) => start + index);
  const [blocks, logs] = await Promise.all([
    mapWithConcurrency(heights, BLOCK_FETCH_CONCURRENCY, (height) =>
      rpc.call("eth_getBlockByNumber", [toBlockTag(height), true], blockWithTransactionsSchema.nullable()),
    ),
    tokenByContract.size === 0
      ? Promise.resolve([])
      : rpc.call(
          "eth_getLogs",
          [{ fromBlock: toBlockTag(start), toBlock: toBlockTag(end), address: [...tokenByContract.keys()], topics: [ERC20_TRANSFER_TOPIC] }],
          logSchema.array(),
        ),
  ]);

  const hashByHeight = new Map<number, string>();
  const transfers: ObservedTransfer[] = [];
  for (const [index, block] of blocks.entries()) {
    // A missing block below the tip means a lagging node: never return a silent gap.
    if (!block || block.number !== heights[index]) {
      throw new ChainError(`${network.id}: block ${heights[index]} is not available from the node yet`, { retryable: true });
    }
    hashByHeight.set(block.number, block.hash);
    for (const transaction of block.transactions) {
      // Contract creations have no recipient; zero-value calls move no coin. Only top-level value
      // is seen: coin forwarded by a contract (internal transfer) would need tracing. A value
      // transfer to an EOA (every deposit address) cannot revert, so no receipt is needed.
      if (!transaction.to || transaction.value === 0n) continue;
      if (transaction.transactionIndex === null || transaction.transactionIndex === undefined) {
        throw new ChainError(`${network.id}: transaction ${transaction.hash} in block ${block.number} has no index`, { retryable: true });
      }
      transfers.push({
        network: network.id,
        currency: network.nativeSymbol,
        txid: transaction.hash,
        position: transaction.transactionIndex,
        toAddress: transaction.to,
        fromAddress: transaction.from,
        amountMinor: transaction.value,
        blockHeight: block.number,
        blockHash: block.hash,
      });
    }
  }

  for (const log of logs) {
    const token = tokenByContract.get(log.address);
    if (!token || log.removed) continue;
    if (log.blockNumber < start || log.blockNumber > end) {
      throw new ChainError(`${network.id}: eth_getLogs answered outside the range asked for`, { retryable: true });
    }
    // Blocks and logs are two calls: if they disagree, the chain reorganised in between.
    if (hashByHeight.get(log.blockNumber) !== log.blockHash) {
      throw new ChainError(`${network.id}: block ${log.blockNumber} changed during the scan (reorganisation)`, { retryable: true });
    }
    const decoded = decodeTransferLog(log.topics, log.data);
    // Not the ERC-20 shape (the ERC-721 event shares the signature); catalogue tokens always match it.
    if (!decoded || decoded.amount === 0n) continue;
    transfers.push({
      network: network.id,
      currency: token.symbol,
      txid: log.transactionHash,
      position: TOKEN_POSITION_OFFSET + log.logIndex,
      toAddress: decoded.to,
      fromAddress: decoded.from,
      amountMinor: decoded.amount,
      blockHeight: log.blockNumber,
      blockHash: log.blockHash,
    });
  }
  return transfers.sort((a, b) => (a.blockHeight ?? 0) - (b.blockHeight ?? 0) || a.position - b.position);
}

/** Decodes `Transfer(address indexed from, address indexed to, uint256 value)`; null for any other shape. */
export function decodeTransferLog(topics: readonly string[], data: string): { from: string; to: string; amount: bigint } | null {
  if (topics.length !== 3 || topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC || data.length !== 2 + 64) return null;
  const from = topicToAddress(topics[1]);
  const to = topicToAddress(topics[2]);
  if (!from || !to) return null;
  return { from, to, amount: BigInt(data) };
}

function topicToAddress(topic: string): string | null {
  // An address topic is 12 zero bytes and the 20-byte address.
  if (!/^0x0{24}[0-9a-fA-F]{40}$/.test(topic)) return null;
  return getAddress(`0x${topic.slice(26).toLowerCase()}`);
}
