import { bytesToHex, encodeFunctionData, erc20Abi, keccak256, parseTransaction, type Hex, type TransactionSerializable } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { findNetwork, findSettlementAsset, minimumConfirmations } from "@/lib/catalogue";
import { validateAddress } from "@/lib/chains/addresses";
import { normalizeEvmAddress } from "@/lib/chains/addresses/evm-address";
import { ChainError, type BalanceReadOptions, type BroadcastOutcome, type ChainSender, type FeeEstimate, type OutgoingTransfer, type SentRecord, type SentTransactionState, type SignedTransaction, type SigningContext, type SigningKey } from "@/lib/chains/types";
import { findEvmAsset, resolveEvmNetwork, type EvmNetwork } from "@/lib/chains/evm/evm-network";
import {
  blockHeaderSchema,
  blockWithTransactionsSchema,
  createEvmRpc,
  EvmRpcError,
  hashSchema,
  hexDataSchema,
  quantitySchema,
  receiptSchema,
  receiptWithLogsSchema,
  smallQuantitySchema,
  transactionSchema,
  type EvmRetryOptions,
  type EvmRpc,
} from "@/lib/chains/evm/evm-rpc";
import { decodeTransferLog } from "@/lib/chains/evm/evm-adapter";
import { createVerifiedChainId } from "@/lib/chains/evm/verified-chain-id";
import type { FetchFunction } from "@/lib/chains/rpc-endpoints";

export interface EvmSenderOptions {
  /** A catalogue EVM network id. */
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
  /**
   * Confirmations after which a block is taken as final: a transaction is dead only once a block
   * this deep holds another transaction with its nonce. Default: the network's minimum
   * confirmations in the catalogue (the depth at which a deposit is believed).
   */
  finalityDepth?: number;
}

export type EvmSender = ChainSender & {
  /** The EIP-155 chain id the node reports; transactions are signed for it. */
  chainId(): Promise<number>;
};

/** A plain coin transfer to an account without code costs exactly this and cannot run out of gas. */
const PLAIN_TRANSFER_GAS = 21_000n;

type FeeParameters = { type: "eip1559"; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { type: "legacy"; gasPrice: bigint };

interface PreparedCall {
  from: string;
  to: Hex;
  value: bigint;
  data: Hex;
}

/**
 * The sending half of an EVM network: native coin and ERC-20 `transfer` payouts, signed in this
 * process with viem (keys never leave it). The nonce is the lowest from the node's pending count
 * up that none of the key's transactions still in flight holds, as the caller's database knows
 * them: a nonce given back below transactions in flight (its transaction refused, or dead) is
 * taken by the next signing, so the ones above it are not stuck behind a gap. A transaction the
 * node does not know can land until another takes its nonce.
 */
export function createEvmSender(options: EvmSenderOptions): EvmSender {
  const network = resolveEvmNetwork(options.network, options.tokens);
  const rpc = createEvmRpc(options);
  const chainId = createVerifiedChainId(rpc, network, options.expectedChainId);
  const finalityDepth = Math.max(1, options.finalityDepth ?? catalogueConfirmations(network.id));
  const contractsWithCode = new Set<string>();

  /**
   * A token transfer to an address without code succeeds on chain and moves nothing (a mainnet
   * contract on a testnet node, a mistyped TOKEN_<NETWORK>_<SYMBOL>): it is refused before
   * signing. Only a positive answer is remembered, so a contract deployed later is found then.
   */
  async function requireContractCode(call: PreparedCall, currency: string): Promise<void> {
    if (call.data === "0x" || contractsWithCode.has(call.to)) return;
    const code = await rpc.call("eth_getCode", [call.to, "latest"], hexDataSchema);
    if (code === "0x") throw new ChainError(`${currency} contract ${call.to} has no code on this ${network.id} node: a transfer would move nothing`, { retryable: false });
    contractsWithCode.add(call.to);
  }

  async function estimateFee(from: SigningKey, transfer: OutgoingTransfer): Promise<FeeEstimate> {
    const fromAddress = normalizeEvmAddress(from.address);
    if (!fromAddress) throw new ChainError(`${from.address} is not an EVM address`, { retryable: false });
    const call = prepareCall(network, fromAddress, transfer);
    await chainId();
    await requireContractCode(call, transfer.currency);
    const [gas, fees] = await Promise.all([estimateGas(rpc, call), readFeeParameters(rpc)]);
    return { feeMinor: maxFeeOf(gas, fees), feeCurrency: network.nativeSymbol };
  }

  async function sign(from: SigningKey, transfer: OutgoingTransfer, context: SigningContext): Promise<SignedTransaction> {
    // Everything checkable without the chain is checked before any key is used.
    const account = accountOf(from);
    const call = prepareCall(network, account.address, transfer);
    const signingChainId = await chainId();
    await requireContractCode(call, transfer.currency);
    // Estimation is also where a transfer the token would refuse (balance too low) stops: a
    // non-retryable ChainError, and no transaction, nonce or fee is spent.
    const [gas, fees, pendingCount, height] = await Promise.all([
      estimateGas(rpc, call),
      readFeeParameters(rpc),
      rpc.call("eth_getTransactionCount", [account.address, "pending"], smallQuantitySchema),
      rpc.call("eth_blockNumber", [], smallQuantitySchema),
    ]);
    const held = new Set(context.inFlight.flatMap((transaction) => (transaction.consumes.nonce === undefined ? [] : [transaction.consumes.nonce])));
    let nonce = pendingCount;
    while (held.has(nonce)) nonce++;
    const unsigned: TransactionSerializable = { chainId: signingChainId, nonce, gas, to: call.to, value: call.value, data: call.data, ...fees };
    const raw = await account.signTransaction(unsigned);
    return { txid: keccak256(raw), raw, consumes: { nonce, signedAtHeight: height }, feeMinor: maxFeeOf(gas, fees) };
  }

  async function broadcast(signed: Pick<SignedTransaction, "txid" | "raw">): Promise<BroadcastOutcome> {
    await chainId();
    try {
      await rpc.call("eth_sendRawTransaction", [signed.raw], hashSchema);
      return { kind: "accepted" };
    } catch (error) {
      if (!(error instanceof EvmRpcError)) throw error;
      if (error.nodeError) {
        const message = error.nodeError.message;
        // The same bytes reached the node before (a retry after a lost answer): it is sent.
        if (/already known|known transaction|already imported|alreadyknown/i.test(message)) return { kind: "accepted" };
        // Its nonce is used: by these very bytes (mined already), or by another transaction.
        if (/nonce too low|nonce has already been used|oldnonce/i.test(message)) {
          const known = await rpc.call("eth_getTransactionByHash", [signed.txid], transactionSchema.nullable());
          return known ? { kind: "accepted" } : { kind: "rejected", reason: `nonce already used: ${message.slice(0, 200)}`, retryable: false };
        }
        const refusal = classifyRefusal("eth_sendRawTransaction", error);
        return { kind: "rejected", reason: refusal.message, retryable: refusal.retryable };
      }
    }
    // No answer at all: the node may have it. Resending the same bytes is safe, a new nonce is not.
    const known = await rpc.call("eth_getTransactionByHash", [signed.txid], transactionSchema.nullable()).catch(() => null);
    return known ? { kind: "accepted" } : { kind: "uncertain", reason: "the node did not answer the broadcast" };
  }

  /**
   * Where the transfer stands: its current signing, or — after a fee bump — an earlier one the
   * record supersedes, whichever a block holds (one nonce: only one can be mined).
   */
  async function getTransaction(txid: string, sent?: SentRecord): Promise<SentTransactionState> {
    const hash = hashSchema.safeParse(txid);
    if (!hash.success) throw new ChainError(`${txid} is not an EVM transaction id`, { retryable: false });
    await chainId();
    for (const candidate of [hash.data, ...(sent?.consumes.supersedes ?? [])]) {
      const receipt = await rpc.call("eth_getTransactionReceipt", [candidate], receiptSchema.nullable());
      if (!receipt) continue;
      const tip = await rpc.call("eth_blockNumber", [], smallQuantitySchema);
      // A lagging node behind a load balancer may report a tip below the receipt's block.
      const confirmations = Math.max(tip - receipt.blockNumber + 1, 1);
      const feeMinor = receipt.gasUsed !== undefined && receipt.effectiveGasPrice !== undefined ? receipt.gasUsed * receipt.effectiveGasPrice : undefined;
      const landed = candidate === hash.data ? {} : { landedTxid: candidate };
      // A reverted transaction is mined (its fee is spent) but moved nothing.
      return { state: receipt.status === "0x1" ? "confirmed" : "failed", confirmations, blockHeight: receipt.blockNumber, feeMinor, ...landed };
    }
    const transaction = await rpc.call("eth_getTransactionByHash", [hash.data], transactionSchema.nullable());
    // Dropped from the mempool, never received, or on a node that has not seen it yet.
    if (!transaction) return { state: "unknown", confirmations: 0, blockHeight: null };
    return { state: "pending", confirmations: 0, blockHeight: null };
  }

  /**
   * Dead only on a chain fact read by block number, never on "latest" answers that two backends
   * behind a load balancer may give from different heights: a block `finalityDepth` deep has
   * the key's nonce count past this nonce, and the block where the count passed it (found by
   * bisection) holds another transaction with this nonce. Anything short of that — the count not
   * yet past it at that depth, a node without the state of a block asked for, a block that does
   * not show the transaction its count implies — leaves it able to land: the caller asks again.
   */
  async function canStillLand(signed: Pick<SignedTransaction, "txid" | "consumes">, from: Pick<SigningKey, "address">): Promise<boolean> {
    const nonce = signed.consumes.nonce;
    if (nonce === undefined) throw new ChainError("an EVM transaction records its nonce", { retryable: false });
    const address = normalizeEvmAddress(from.address);
    if (!address) throw new ChainError(`${from.address} is not an EVM address`, { retryable: false });
    const countAt = (height: number) => rpc.call("eth_getTransactionCount", [address, toQuantity(BigInt(height))], smallQuantitySchema);
    const settled = (await rpc.call("eth_blockNumber", [], smallQuantitySchema)) - (finalityDepth - 1);
    if (settled < 0 || (await countAt(settled)) <= nonce) return true;
    // countAt(low) ≤ nonce < countAt(high): the nonce was used in a block in (low, high].
    let low = Math.min(signed.consumes.signedAtHeight ?? 0, settled);
    if ((await countAt(low)) > nonce) low = 0;
    let high = settled;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if ((await countAt(middle)) > nonce) high = middle;
      else low = middle;
    }
    const block = await rpc.call("eth_getBlockByNumber", [toQuantity(BigInt(high)), true], blockWithTransactionsSchema.nullable());
    const user = block?.transactions.find((transaction) => transaction.from.toLowerCase() === address.toLowerCase() && transaction.nonce === nonce);
    // Not there: two backends disagree about that block; nothing is proven.
    if (!user) return true;
    // This transfer, as signed now or before a fee bump, has landed.
    return [signed.txid, ...(signed.consumes.supersedes ?? [])].some((txid) => txid.toLowerCase() === user.hash.toLowerCase());
  }

  async function getBalance(address: string, currency: string, readOptions: BalanceReadOptions = {}): Promise<bigint> {
    const owner = normalizeEvmAddress(address);
    if (!owner) throw new ChainError(`${address} is not an EVM address`, { retryable: false });
    const asset = findEvmAsset(network, currency);
    if (!asset) throw new ChainError(`${currency} is not carried on ${network.id}`, { retryable: false });
    // A client of its own: one attempt within the caller's deadline, where the sending client retries.
    // The chain id is not checked first: a balance pays nothing, and the registry verified the node.
    const once = createEvmRpc({ rpcUrl: options.rpcUrl, fetch: options.fetch, timeoutMs: readOptions.timeoutMs ?? options.timeoutMs, retry: { count: 0, delayMs: 0 } });
    if (asset.kind === "native") return once.call("eth_getBalance", [owner, "latest"], quantitySchema);
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [owner as Hex] });
    const answer = await once.call("eth_call", [{ to: asset.token.contract, data }, "latest"], hexDataSchema);
    // An account without code answers nothing: no token lives there (a test node carries only the
    // tokens deployed on it), so the address holds none of it.
    if (answer === "0x") return 0n;
    if (answer.length !== 66) throw new ChainError(`${currency} on ${network.id}: balanceOf answered ${(answer.length - 2) / 2} bytes, not 32`, { retryable: false });
    return BigInt(answer);
  }

  /**
   * The same call, nonce and gas signed again with fees that both beat the stuck transaction's by
   * the replacement rule (geth and most nodes: +10 %; +12.5 % here, and at least one wei) and
   * meet the market now.
   */
  async function bump(from: SigningKey, transfer: OutgoingTransfer, stuck: Pick<SignedTransaction, "txid" | "raw" | "consumes">, bumpOptions: { afterBlocks: number }): Promise<SignedTransaction | null> {
    const account = accountOf(from);
    const { nonce, signedAtHeight } = stuck.consumes;
    if (nonce === undefined) throw new ChainError("an EVM transaction records its nonce", { retryable: false });
    const tip = await rpc.call("eth_blockNumber", [], smallQuantitySchema);
    if (signedAtHeight !== undefined && tip - signedAtHeight < bumpOptions.afterBlocks) return null;
    // In a block already (this signing or an earlier one): not stuck.
    for (const txid of [stuck.txid, ...(stuck.consumes.supersedes ?? [])]) {
      if ((await rpc.call("eth_getTransactionReceipt", [txid], receiptSchema.nullable())) !== null) return null;
    }
    // Waiting behind an earlier nonce is not being stuck: only the next one in line is replaced.
    if ((await rpc.call("eth_getTransactionCount", [account.address, "latest"], smallQuantitySchema)) !== nonce) return null;
    const previous = parseTransaction(stuck.raw as Hex);
    if (previous.nonce !== nonce || previous.gas === undefined) throw new ChainError(`the stored transaction ${stuck.txid} does not carry its nonce and gas`, { retryable: false });
    const call = prepareCall(network, account.address, transfer);
    const market = await readFeeParameters(rpc);
    const raise = (old: bigint | undefined, now: bigint) => {
      const floor = old === undefined ? 0n : old + old / 8n + 1n;
      return now > floor ? now : floor;
    };
    const fees: FeeParameters =
      previous.type === "eip1559" && market.type === "eip1559"
        ? { type: "eip1559", maxFeePerGas: raise(previous.maxFeePerGas, market.maxFeePerGas), maxPriorityFeePerGas: raise(previous.maxPriorityFeePerGas, market.maxPriorityFeePerGas) }
        : { type: "legacy", gasPrice: raise(previous.gasPrice ?? previous.maxFeePerGas, market.type === "legacy" ? market.gasPrice : market.maxFeePerGas) };
    const unsigned: TransactionSerializable = { chainId: await chainId(), nonce, gas: previous.gas, to: call.to, value: call.value, data: call.data, ...fees };
    const raw = await account.signTransaction(unsigned);
    return {
      txid: keccak256(raw),
      raw,
      consumes: { nonce, signedAtHeight: tip, supersedes: [...(stuck.consumes.supersedes ?? []), stuck.txid] },
      feeMinor: maxFeeOf(previous.gas, fees),
    };
  }

  /** The coin the transaction itself carried to the recipient, or the token `Transfer`s its successful receipt logs from the sender to it. */
  async function readDelivered(txid: string, sent: SentRecord, delivery: { toAddress: string; currency: string }): Promise<bigint> {
    const asset = findEvmAsset(network, delivery.currency);
    if (!asset) throw new ChainError(`${delivery.currency} is not carried on ${network.id}`, { retryable: false });
    const [from, to] = [normalizeEvmAddress(sent.fromAddress), normalizeEvmAddress(delivery.toAddress)];
    if (!from || !to) throw new ChainError("not EVM addresses", { retryable: false });
    const receipt = await rpc.call("eth_getTransactionReceipt", [txid], receiptWithLogsSchema.nullable());
    if (!receipt || receipt.status !== "0x1") return 0n;
    if (asset.kind === "native") {
      const transaction = await rpc.call("eth_getTransactionByHash", [txid], transactionSchema);
      return transaction.from === from && transaction.to === to ? transaction.value : 0n;
    }
    return receipt.logs
      .filter((entry) => entry.address === normalizeEvmAddress(asset.token.contract))
      .map((entry) => decodeTransferLog(entry.topics, entry.data))
      .filter((transfer) => transfer !== null && transfer.from === from && transfer.to === to)
      .reduce((sum, transfer) => sum + transfer!.amount, 0n);
  }

  return { network: network.id, chainId, estimateFee, sign, broadcast, getTransaction, canStillLand, getBalance, bump, readDelivered };
}

/** An upper bound of the fee: EIP-1559 charges base fee + tip, at most maxFeePerGas. */
function maxFeeOf(gas: bigint, fees: FeeParameters): bigint {
  return gas * (fees.type === "eip1559" ? fees.maxFeePerGas : fees.gasPrice);
}

/** The signer of a key; refuses a key that is malformed or does not belong to its address. */
function accountOf(from: SigningKey): PrivateKeyAccount {
  let account: PrivateKeyAccount;
  try {
    if (from.privateKey.length !== 32) throw new Error("an EVM private key is 32 bytes");
    account = privateKeyToAccount(bytesToHex(from.privateKey));
  } catch (error) {
    throw new ChainError("the signing key is not a valid secp256k1 private key", { retryable: false, cause: error });
  }
  if (normalizeEvmAddress(from.address) !== account.address) {
    throw new ChainError(`the signing key does not belong to ${from.address}`, { retryable: false });
  }
  return account;
}

/** The call a transfer makes, after checking it fully without the chain. */
function prepareCall(network: EvmNetwork, fromAddress: string, transfer: OutgoingTransfer): PreparedCall {
  const recipient = validateAddress(network.id, transfer.toAddress);
  if (!recipient.ok) {
    throw new ChainError(`recipient ${transfer.toAddress} is not a ${network.id} address (${recipient.reason})`, { retryable: false });
  }
  const asset = findEvmAsset(network, transfer.currency);
  if (!asset) throw new ChainError(`${transfer.currency} is not sent on ${network.id}`, { retryable: false });
  if (transfer.amountMinor <= 0n) throw new ChainError("the amount must be positive", { retryable: false });
  if (transfer.amountMinor >= 2n ** 256n) throw new ChainError("the amount does not fit uint256", { retryable: false });
  const to = recipient.normalized as Hex;
  if (asset.kind === "native") return { from: fromAddress, to, value: transfer.amountMinor, data: "0x" };
  return {
    from: fromAddress,
    to: asset.token.contract as Hex,
    value: 0n,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, transfer.amountMinor] }),
  };
}

async function estimateGas(rpc: EvmRpc, call: PreparedCall): Promise<bigint> {
  let estimate: bigint;
  try {
    estimate = await rpc.call("eth_estimateGas", [{ from: call.from, to: call.to, value: toQuantity(call.value), data: call.data }], quantitySchema);
  } catch (error) {
    throw classifyRefusal("eth_estimateGas", error);
  }
  // Contract calls can cost more by the time they are mined (storage the estimate saw as set may
  // be cleared); 20 % headroom, and unused gas is not charged.
  return estimate === PLAIN_TRANSFER_GAS ? estimate : estimate + estimate / 5n;
}

/** EIP-1559 when the latest block has a base fee, legacy gasPrice otherwise. */
async function readFeeParameters(rpc: EvmRpc): Promise<FeeParameters> {
  const latest = await rpc.call("eth_getBlockByNumber", ["latest", false], blockHeaderSchema.nullable());
  if (!latest) throw new ChainError("the node has no latest block", { retryable: true });
  const baseFee = latest.baseFeePerGas;
  if (baseFee === null || baseFee === undefined) {
    return { type: "legacy", gasPrice: await rpc.call("eth_gasPrice", [], quantitySchema) };
  }
  let priorityFee: bigint;
  try {
    priorityFee = await rpc.call("eth_maxPriorityFeePerGas", [], quantitySchema);
  } catch (error) {
    // Nodes without the method: the legacy price minus the base fee is the tip they expect.
    if (!(error instanceof EvmRpcError && error.nodeError)) throw error;
    const gasPrice = await rpc.call("eth_gasPrice", [], quantitySchema);
    priorityFee = gasPrice > baseFee ? gasPrice - baseFee : 0n;
  }
  // Twice the base fee keeps the transaction includable through six full blocks of +12.5 % each.
  return { type: "eip1559", maxFeePerGas: 2n * baseFee + priorityFee, maxPriorityFeePerGas: priorityFee };
}

/** Refusals that will not change by retrying the same transfer. */
const SHORT_OF_FUNDS = /insufficient funds|exceeds balance|insufficient balance/i;
const FINAL_REFUSALS = /execution reverted|revert|insufficient funds|intrinsic gas too low|exceeds block gas limit|invalid sender|invalid chain ?id|transaction type not supported|tx type not supported/i;

/**
 * A node's refusal of a transfer: final (the token reverts, the key lacks the funds) or worth
 * retrying (nonce races, fee too low for the moment, rate limits, transport failures).
 */
function classifyRefusal(method: string, error: unknown): ChainError {
  if (!(error instanceof EvmRpcError)) return error instanceof ChainError ? error : new ChainError(`${method} failed`, { retryable: true, cause: error });
  // JSON-RPC code 3 is "execution reverted" with revert data (geth, anvil, erigon).
  if (error.nodeError && (error.nodeError.code === 3 || FINAL_REFUSALS.test(error.nodeError.message))) {
    // A plain transfer the key cannot pay for, or a token transfer reverting for the balance.
    const isShortOfFunds = SHORT_OF_FUNDS.test(error.nodeError.message);
    return new ChainError(`${method}: the transfer was refused (${error.nodeError.message.slice(0, 200)})`, { retryable: false, isShortOfFunds, cause: error });
  }
  return error;
}

/** The network's minimum confirmations in the catalogue (those of its native coin). */
function catalogueConfirmations(networkId: string): number {
  const network = findNetwork(networkId);
  const native = network ? findSettlementAsset(network.nativeSymbol, networkId) : undefined;
  return native ? minimumConfirmations(native) : 1;
}

function toQuantity(value: bigint): string {
  return `0x${value.toString(16)}`;
}
