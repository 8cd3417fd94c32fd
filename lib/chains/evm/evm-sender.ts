import { bytesToHex, encodeFunctionData, erc20Abi, keccak256, type Hex, type TransactionSerializable } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { validateAddress } from "@/lib/chains/addresses";
import { normalizeEvmAddress } from "@/lib/chains/addresses/evm-address";
import { ChainError, type ChainSender, type FeeEstimate, type OutgoingTransfer, type SentTransactionState, type SigningKey } from "@/lib/chains/types";
import { findEvmAsset, resolveEvmNetwork, type EvmNetwork } from "@/lib/chains/evm/evm-network";
import {
  blockHeaderSchema,
  createEvmRpc,
  EvmRpcError,
  hashSchema,
  quantitySchema,
  receiptSchema,
  smallQuantitySchema,
  transactionSchema,
  type EvmRetryOptions,
  type EvmRpc,
} from "@/lib/chains/evm/evm-rpc";
import { SHARED_NONCE_MANAGER, type NonceManager } from "@/lib/chains/evm/nonce-manager";
import { createVerifiedChainId } from "@/lib/chains/evm/verified-chain-id";

export interface EvmSenderOptions {
  /** A catalogue EVM network id. */
  network: string;
  rpcUrl: string;
  /** Token contracts by catalogue symbol, replacing the catalogue's (a token deployed on a test node). */
  tokens?: Readonly<Record<string, string>>;
  /** Per-request timeout in ms. Default 10 000. */
  timeoutMs?: number;
  retry?: EvmRetryOptions;
  /** When set, the node must report exactly this chain id. */
  expectedChainId?: number;
  /** Defaults to the process-wide manager, so every sender of the process shares one lock per account. */
  nonceManager?: NonceManager;
}

export type EvmSender = ChainSender & {
  /** The EIP-155 chain id the node reports; transactions are signed for it. */
  chainId(): Promise<number>;
};

/**
 * Thrown when a signed transaction may or may not have reached the node (the broadcast timed out
 * and the node does not know it yet). Retryable, but the caller must look at `txid` with
 * `getTransaction` before sending the same payout again, or it may pay twice.
 */
export class EvmBroadcastUncertainError extends ChainError {
  readonly txid: string;
  constructor(txid: string) {
    super(`broadcast of ${txid} is unconfirmed: check it before sending again`, { retryable: true });
    this.name = "EvmBroadcastUncertainError";
    this.txid = txid;
  }
}

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
 * process with viem (keys never leave it), one nonce lock per chain and address.
 */
export function createEvmSender(options: EvmSenderOptions): EvmSender {
  const network = resolveEvmNetwork(options.network, options.tokens);
  const rpc = createEvmRpc(options);
  const chainId = createVerifiedChainId(rpc, network, options.expectedChainId);
  const nonceManager = options.nonceManager ?? SHARED_NONCE_MANAGER;

  async function estimateFee(from: SigningKey, transfer: OutgoingTransfer): Promise<FeeEstimate> {
    const fromAddress = normalizeEvmAddress(from.address);
    if (!fromAddress) throw new ChainError(`${from.address} is not an EVM address`, { retryable: false });
    const call = prepareCall(network, fromAddress, transfer);
    await chainId();
    const [gas, fees] = await Promise.all([estimateGas(rpc, call), readFeeParameters(rpc)]);
    // An upper bound: EIP-1559 charges base fee + tip, at most maxFeePerGas.
    return { feeMinor: gas * (fees.type === "eip1559" ? fees.maxFeePerGas : fees.gasPrice), feeCurrency: network.nativeSymbol };
  }

  async function send(from: SigningKey, transfer: OutgoingTransfer): Promise<{ txid: string }> {
    // Everything checkable without the chain is checked before any key is used.
    const account = accountOf(from);
    const call = prepareCall(network, account.address, transfer);
    const signingChainId = await chainId();
    // Estimated outside the nonce lock so concurrent sends from one key do not queue on it.
    // Estimation is also where a transfer the token would refuse (balance too low) stops: a
    // non-retryable ChainError, and no transaction, nonce or fee is spent.
    const [gas, fees] = await Promise.all([estimateGas(rpc, call), readFeeParameters(rpc)]);
    // One nonce space per chain: the same key has a nonce on every EVM chain. The network is in
    // the name too, because test nodes of different networks all report chain id 31337.
    const nonceAccount = `${network.id}:${signingChainId}:${account.address}`;
    const txid = await nonceManager.withNextNonce(
      nonceAccount,
      () => rpc.call("eth_getTransactionCount", [account.address, "pending"], smallQuantitySchema),
      async (nonce) => {
        const unsigned: TransactionSerializable = { chainId: signingChainId, nonce, gas, to: call.to, value: call.value, data: call.data, ...fees };
        const signed = await account.signTransaction(unsigned);
        return broadcast(rpc, signed);
      },
    );
    return { txid };
  }

  async function getTransaction(txid: string): Promise<SentTransactionState> {
    const hash = hashSchema.safeParse(txid);
    if (!hash.success) throw new ChainError(`${txid} is not an EVM transaction id`, { retryable: false });
    await chainId();
    const receipt = await rpc.call("eth_getTransactionReceipt", [hash.data], receiptSchema.nullable());
    if (receipt) {
      const tip = await rpc.call("eth_blockNumber", [], smallQuantitySchema);
      // A lagging node behind a load balancer may report a tip below the receipt's block.
      const confirmations = Math.max(tip - receipt.blockNumber + 1, 1);
      // A reverted transaction is mined (its fee is spent) but moved nothing.
      return { state: receipt.status === "0x1" ? "confirmed" : "failed", confirmations, blockHeight: receipt.blockNumber };
    }
    const transaction = await rpc.call("eth_getTransactionByHash", [hash.data], transactionSchema.nullable());
    // Dropped from the mempool, never received, or on a node that has not seen it yet.
    if (!transaction) return { state: "unknown", confirmations: 0, blockHeight: null };
    return { state: "pending", confirmations: 0, blockHeight: null };
  }

  return { network: network.id, chainId, estimateFee, send, getTransaction };
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

/** Broadcasts a signed transaction; returns its hash once the node has it. */
async function broadcast(rpc: EvmRpc, signed: Hex): Promise<string> {
  const txid = keccak256(signed);
  try {
    await rpc.call("eth_sendRawTransaction", [signed], hashSchema);
    return txid;
  } catch (error) {
    if (!(error instanceof EvmRpcError)) throw error;
    // The same bytes reached the node before (a retry after a lost answer): it is sent.
    if (error.nodeError && /already known|known transaction|already imported|alreadyknown/i.test(error.nodeError.message)) return txid;
    if (error.nodeError) throw classifyRefusal("eth_sendRawTransaction", error);
  }
  // No answer at all: the node may have it. Resending the same bytes is safe, a new nonce is not.
  const known = await rpc.call("eth_getTransactionByHash", [txid], transactionSchema.nullable()).catch(() => null);
  if (known) return txid;
  throw new EvmBroadcastUncertainError(txid);
}

/** Refusals that will not change by retrying the same transfer. */
const FINAL_REFUSALS = /execution reverted|revert|insufficient funds|intrinsic gas too low|exceeds block gas limit|invalid sender|invalid chain ?id|transaction type not supported|tx type not supported/i;

/**
 * A node's refusal of a transfer: final (the token reverts, the key lacks the funds) or worth
 * retrying (nonce races, fee too low for the moment, rate limits, transport failures).
 */
function classifyRefusal(method: string, error: unknown): ChainError {
  if (!(error instanceof EvmRpcError)) return error instanceof ChainError ? error : new ChainError(`${method} failed`, { retryable: true, cause: error });
  // JSON-RPC code 3 is "execution reverted" with revert data (geth, anvil, erigon).
  if (error.nodeError && (error.nodeError.code === 3 || FINAL_REFUSALS.test(error.nodeError.message))) {
    return new ChainError(`${method}: the transfer was refused (${error.nodeError.message.slice(0, 200)})`, { retryable: false, cause: error });
  }
  return error;
}

function toQuantity(value: bigint): string {
  return `0x${value.toString(16)}`;
}
