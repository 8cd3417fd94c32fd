import type { ChainAdapter, ChainTip, ObservedTransfer } from "@/lib/chains/types";
import { ChainError } from "@/lib/chains/types";
import { bytesToHex, decodeTrc20TransferCall, hexToBytes, isHex, tronHexToAddress } from "@/lib/chains/tron/tron-encoding";
import { createTronHttp, type FetchFunction } from "@/lib/chains/tron/tron-http";
import { resolveTronNetwork, type TronNetwork, type TronToken } from "@/lib/chains/tron/tron-network";
import { decodeRawTransaction, decodeTransferContract, TRANSFER_CONTRACT_TYPE } from "@/lib/chains/tron/tron-raw-transaction";
import {
  blockListSchema,
  nodeInfoSchema,
  optionalBlockSchema,
  transferValueSchema,
  triggerValueSchema,
  type BlockTransaction,
  type TronBlock,
} from "@/lib/chains/tron/tron-schemas";
import { computeTronTxId } from "@/lib/chains/tron/tron-signer";

/** Token transfer positions start here, above any transaction index, so (txid, position) never collides. */
export const TOKEN_POSITION_OFFSET = 1_000_000;

/** Genesis block ids of the public TRON networks (`wallet/getblockbynum {"num": 0}`). */
export const TRON_GENESIS_BLOCK_IDS = {
  mainnet: "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc",
  nile: "0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc",
  shasta: "0000000000000000de1aa88295e1fcf982742f773e0419c5a9c134c994a9059e",
} as const;

/** `p2pVersion` of the public networks (`getnodeinfo`): a node must use its network's value to peer at all. */
const P2P_VERSIONS: Readonly<Record<string, TronChainName>> = { "11111": "mainnet", "201910292": "nile", "1": "shasta" };

type TronChainName = keyof typeof TRON_GENESIS_BLOCK_IDS;

export interface TronIdentity {
  isProduction: boolean;
  label: string;
}

export interface TronAdapterOptions {
  /** Base URL of the node's HTTP API (java-tron `:8090`, `https://api.trongrid.io`, …). */
  rpcUrl: string;
  /** TronGrid API key, sent as `TRON-PRO-API-KEY`. */
  apiKey?: string;
  fetch?: FetchFunction;
  /** Token contracts by catalogue symbol, replacing the catalogue's (a token deployed on a test chain). */
  tokens?: Readonly<Record<string, string>>;
  /** Per-call timeout in ms. Default 10 000. */
  timeoutMs?: number;
  /** Blocks per `getblockbylimitnext` call, 1 to 100 (the node's limit). Mainnet blocks carry hundreds of transactions. Default 20. */
  blocksPerRequest?: number;
}

export type TronAdapter = ChainAdapter & {
  /** Which TRON network the node serves, from its genesis block (or its p2p version when it has no genesis block). */
  identify(): Promise<TronIdentity>;
};

/** java-tron refuses `endNum - startNum > 100` in getblockbylimitnext. */
const MAX_BLOCKS_PER_REQUEST = 100;

/**
 * The watching half of the Tron network over the full-node HTTP API: TRX `TransferContract`
 * transfers and TRC-20 `transfer(address,uint256)` calls on the catalogue tokens, in blocks only.
 *
 * Limits, by design of reading transactions rather than event logs:
 * - token transfers made inside other contracts (exchange batch payouts, `transferFrom`, multisig
 *   wallets) are not seen; only direct `transfer` calls to the token contract are;
 * - TRC-10 tokens and TRX moved by contracts (internal transactions) are not seen;
 * - a token call counts only when its `ret[0].contractRet` is SUCCESS (USDT's `transfer` returns
 *   false even on success, so the return value is not read).
 * Every failure is a ChainError; a scan returns all of its range or throws.
 */
export function createTronAdapter(options: TronAdapterOptions): TronAdapter {
  const network = resolveTronNetwork(options.tokens);
  const http = createTronHttp(options);
  const blocksPerRequest = options.blocksPerRequest ?? 20;
  if (!Number.isSafeInteger(blocksPerRequest) || blocksPerRequest < 1 || blocksPerRequest > MAX_BLOCKS_PER_REQUEST) {
    throw new ChainError(`blocksPerRequest must be an integer from 1 to ${MAX_BLOCKS_PER_REQUEST}`, { retryable: false });
  }
  const tokenByContractHex = new Map(network.tokens.map((token) => [token.contractHex, token]));
  // The highest tip this adapter has reported: a scan never stops below it, even when the node
  // answering the scan (TronGrid is load-balanced) lags, because the watcher moves its cursor there.
  let highestTipSeen = -1;

  async function getTip(): Promise<ChainTip> {
    const block = await http.post("/wallet/getnowblock", {}, optionalBlockSchema);
    if (!block) throw new ChainError("tron: the node has no latest block", { retryable: true });
    highestTipSeen = Math.max(highestTipSeen, block.height);
    return { height: block.height, hash: block.hash };
  }

  async function getBlockHash(height: number): Promise<string | null> {
    if (!Number.isSafeInteger(height) || height < 0) return null;
    const block = await http.post("/wallet/getblockbynum", { num: height }, optionalBlockSchema);
    if (!block) return null;
    if (block.height !== height) throw new ChainError(`tron: asked for block ${height}, the node answered ${block.height}`, { retryable: true });
    return block.hash;
  }

  async function scanTransfers({ afterHeight }: { afterHeight: number }): Promise<ObservedTransfer[]> {
    const tip = await getTip();
    const lastHeight = Math.max(tip.height, highestTipSeen);
    const transfers: ObservedTransfer[] = [];
    // The whole range, chunk by chunk: the watcher moves its cursor to the tip after this call.
    for (let start = Math.max(afterHeight + 1, 0); start <= lastHeight; start += blocksPerRequest) {
      const end = Math.min(start + blocksPerRequest - 1, lastHeight);
      // endNum is exclusive.
      const blocks = await http.post("/wallet/getblockbylimitnext", { startNum: start, endNum: end + 1 }, blockListSchema);
      for (let height = start; height <= end; height++) {
        const block = blocks[height - start];
        // A missing block below the tip means a lagging node: never return a silent gap.
        if (!block || block.height !== height) {
          throw new ChainError(`tron: block ${height} is not available from the node yet`, { retryable: true });
        }
        transfers.push(...readBlockTransfers(network, tokenByContractHex, block));
      }
    }
    return transfers.sort((a, b) => (a.blockHeight ?? 0) - (b.blockHeight ?? 0) || a.position - b.position);
  }

  async function identify(): Promise<TronIdentity> {
    const genesis = await http.post("/wallet/getblockbynum", { num: 0 }, optionalBlockSchema);
    if (genesis) return identityOf(chainOfGenesis(genesis.hash), `genesis ${genesis.hash}`);
    // A lite full node (started from a snapshot) has no genesis block; its p2p version still tells the network.
    const info = await http.post("/wallet/getnodeinfo", {}, nodeInfoSchema);
    return identityOf(P2P_VERSIONS[info.configNodeInfo.p2pVersion] ?? null, `p2p version ${info.configNodeInfo.p2pVersion}`);
  }

  return {
    network: network.id,
    source: "rpc",
    capabilities: { hasMemo: false, knowsPayerAddress: true },
    getTip,
    getBlockHash,
    scanTransfers,
    identify,
  };
}

function chainOfGenesis(genesisId: string): TronChainName | null {
  for (const [name, id] of Object.entries(TRON_GENESIS_BLOCK_IDS)) if (id === genesisId) return name as TronChainName;
  return null;
}

function identityOf(chain: TronChainName | null, evidence: string): TronIdentity {
  if (chain === "mainnet") return { isProduction: true, label: "mainnet" };
  if (chain) return { isProduction: false, label: `${chain} testnet` };
  return { isProduction: false, label: `private chain (${evidence})` };
}

/** The transfers of one block, in transaction order (TRX at its index, tokens at 1 000 000 + index). */
export function readBlockTransfers(network: TronNetwork, tokenByContractHex: ReadonlyMap<string, TronToken>, block: TronBlock): ObservedTransfer[] {
  const transfers: ObservedTransfer[] = [];
  // The genesis block holds the initial allocations (one from a non-address, one negative), not payments.
  if (block.height === 0) return transfers;
  for (const [index, transaction] of block.transactions.entries()) {
    // TRON transactions carry exactly one contract; the API lists it as an array.
    const contract = transaction.raw_data.contract[0];
    if (!contract || transaction.raw_data.contract.length !== 1) continue;
    const contractRet = transaction.ret?.[0]?.contractRet;
    const base = { network: network.id, txid: transaction.txID, blockHeight: block.height, blockHash: block.hash };
    if (contract.type === "TransferContract") {
      // TRX transfers are validated before inclusion; a result other than SUCCESS is not expected, but is not a payment either.
      if (contractRet !== undefined && contractRet !== "SUCCESS") continue;
      const transfer = readTrxTransfer(transaction, contract.parameter?.value);
      transfers.push({ ...base, currency: network.nativeSymbol, position: index, ...transfer });
    } else if (contract.type === "TriggerSmartContract") {
      const value = triggerValueSchema.safeParse(contract.parameter?.value);
      if (!value.success) continue;
      const token = tokenByContractHex.get(value.data.contract_address.toLowerCase());
      // Reverted, out of energy, or any result but SUCCESS moved no tokens.
      if (!token || contractRet !== "SUCCESS" || !value.data.data) continue;
      const call = decodeTrc20TransferCall(value.data.data);
      const fromAddress = tronHexToAddress(value.data.owner_address);
      if (!call || !fromAddress || call.amount === 0n) continue;
      transfers.push({
        ...base,
        currency: token.symbol,
        position: TOKEN_POSITION_OFFSET + index,
        toAddress: call.toAddress,
        fromAddress,
        amountMinor: call.amount,
      });
    }
  }
  return transfers;
}

/** A TRX transfer's parties and amount, exact even above 2^53 sun (read from `raw_data_hex` then). */
function readTrxTransfer(transaction: BlockTransaction, value: unknown): { toAddress: string; fromAddress: string; amountMinor: bigint } {
  const parsed = transferValueSchema.safeParse(value);
  const toAddress = parsed.success ? tronHexToAddress(parsed.data.to_address) : null;
  const fromAddress = parsed.success ? tronHexToAddress(parsed.data.owner_address) : null;
  if (!parsed.success || !toAddress || !fromAddress) {
    // A payment we cannot read must stop the scan, not vanish from it.
    throw new ChainError(`tron: TransferContract ${transaction.txID} has an unexpected shape`, { retryable: true });
  }
  if (Number.isSafeInteger(parsed.data.amount)) return { toAddress, fromAddress, amountMinor: BigInt(parsed.data.amount) };
  const exact = readAmountFromRawData(transaction, parsed.data.to_address);
  if (exact === null) throw new ChainError(`tron: amount of ${transaction.txID} is beyond exact JSON numbers and has no raw data`, { retryable: true });
  return { toAddress, fromAddress, amountMinor: exact };
}

/** The exact amount from the transaction's bytes, when they are the transfer its JSON describes. */
function readAmountFromRawData(transaction: BlockTransaction, toAddressHex: string): bigint | null {
  if (!transaction.raw_data_hex || !isHex(transaction.raw_data_hex)) return null;
  if (computeTronTxId(transaction.raw_data_hex) !== transaction.txID) return null;
  try {
    const contract = decodeRawTransaction(hexToBytes(transaction.raw_data_hex)).contracts[0];
    if (!contract || contract.type !== TRANSFER_CONTRACT_TYPE) return null;
    const fields = decodeTransferContract(contract.value);
    return bytesToHex(fields.toAddress) === toAddressHex.toLowerCase() ? fields.amount : null;
  } catch {
    return null;
  }
}
