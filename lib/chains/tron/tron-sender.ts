import { validateAddress } from "@/lib/chains/addresses";
import { ChainError, type BalanceReadOptions, type ChainSender, type FeeEstimate, type OutgoingTransfer, type BroadcastOutcome, type SentRecord, type SentTransactionState, type SignedTransaction, type SigningContext, type SigningKey } from "@/lib/chains/types";
import {
  bytesEqual,
  bytesToHex,
  encodeTrc20BalanceOfArgument,
  encodeTrc20TransferArguments,
  hexToBytes,
  isHex,
  TRC20_BALANCE_OF_SIGNATURE,
  TRC20_TRANSFER_SELECTOR,
  TRC20_TRANSFER_SIGNATURE,
  tronAddressToHex,
} from "@/lib/chains/tron/tron-encoding";
import { createTronHttp, decodeNodeMessage, TronApiError, type FetchFunction, type TronHttp } from "@/lib/chains/tron/tron-http";
import { readBlockTransfers } from "@/lib/chains/tron/tron-adapter";
import { resolveTronNetwork, type TronNetwork, type TronToken } from "@/lib/chains/tron/tron-network";
import {
  decodeRawTransaction,
  decodeTransferContract,
  decodeTriggerSmartContract,
  RawTransactionError,
  TRANSFER_CONTRACT_TYPE,
  TRANSFER_CONTRACT_TYPE_URL,
  TRIGGER_SMART_CONTRACT_TYPE,
  TRIGGER_SMART_CONTRACT_TYPE_URL,
} from "@/lib/chains/tron/tron-raw-transaction";
import {
  accountSchema,
  blockListSchema,
  broadcastAnswerSchema,
  chainParametersSchema,
  optionalBlockSchema,
  transactionInfoSchema,
  triggerConstantContractAnswerSchema,
  triggerSmartContractAnswerSchema,
  unsignedTransactionSchema,
  type TronBlock,
  type UnsignedTransaction,
} from "@/lib/chains/tron/tron-schemas";
import { computeTronTxId, signTronTxId, tronAddressOfPrivateKey } from "@/lib/chains/tron/tron-signer";

export interface TronSenderOptions {
  rpcUrl: string;
  /** TronGrid API key, sent as `TRON-PRO-API-KEY`. */
  apiKey?: string;
  fetch?: FetchFunction;
  /** Token contracts by catalogue symbol, replacing the catalogue's (a token deployed on a test chain). */
  tokens?: Readonly<Record<string, string>>;
  /** Per-call timeout in ms. Default 10 000. */
  timeoutMs?: number;
  /** `fee_limit` of TRC-20 transfers: the most TRX (in sun) one may burn for energy. Default 100 TRX. */
  feeLimitSun?: bigint;
  /** Milliseconds since the epoch; checks the expiration the node wrote. Default `Date.now`. */
  now?: () => number;
}

/** Default `fee_limit`: a USDT transfer to a fresh holder takes about 130 000 energy (13 TRX at 100 sun per energy). */
const DEFAULT_FEE_LIMIT_SUN = 100_000_000n;
/**
 * Bandwidth of a signed TRX transfer: the serialized transaction (134 bytes of raw data, 3 of
 * framing, 67 for one signature) plus the 64 bytes java-tron charges per transaction for its
 * result (MAX_RESULT_SIZE_IN_TX). Paid from free or staked bandwidth when there is some, else
 * burned at `getTransactionFee` sun per byte.
 */
const TRX_TRANSFER_BANDWIDTH_BYTES = 268n;
/** The same for a TRC-20 `transfer` call: 211 bytes of raw data (call data and fee limit included). */
const TRC20_TRANSFER_BANDWIDTH_BYTES = 345n;
/** java-tron sets expiration 60 s after its head block; anything much later would keep a payout in doubt for long. */
const MAX_EXPIRATION_AHEAD_MS = 10 * 60_000;
/** A block every 3 s (fewer when a producer misses its slot). */
const TRON_BLOCK_MS = 3_000;
/** Blocks per getblockbylimitnext read (java-tron refuses more than 100). */
const BLOCKS_PER_READ = 100;
/** Broadcast refusals that a fresh attempt (new reference block, new timestamp) may overcome. */
const RETRYABLE_BROADCAST_CODES = new Set([
  "SERVER_BUSY",
  "NO_CONNECTION",
  "NOT_ENOUGH_EFFECTIVE_CONNECTION",
  "BLOCK_UNSOLIDIFIED",
  "TAPOS_ERROR",
  "TRANSACTION_EXPIRATION_ERROR",
]);

type PreparedTransfer =
  | { kind: "native"; ownerHex: string; toHex: string; amount: bigint }
  | { kind: "token"; ownerHex: string; toHex: string; amount: bigint; token: TronToken; callArguments: string };

/**
 * The sending half of the Tron network: TRX via `createtransaction`, TRC-20 via
 * `triggersmartcontract`, signed in this process (keys never leave it) after checking that the
 * node's `raw_data_hex` is exactly the transfer asked for, then `broadcasttransaction`.
 *
 * What is checked before signing (TransferContract and TriggerSmartContract alike): the node's
 * txID is sha256(raw_data_hex); the raw data holds one contract of the expected type, no memo,
 * no multi-signature parts, no permission id; owner, recipient and amount (TRX), or owner, token
 * contract, zero call value and zero TRC-10 value, exact `transfer(to, amount)` call data and our
 * fee limit (TRC-20); the expiration is near; and the JSON `raw_data` (which the node re-encodes
 * at broadcast) agrees with those bytes. What cannot be checked: the token contract's own code —
 * a TRC-20 transfer is only as honest as the contract at the catalogue address — and the
 * reference block (a wrong one only makes the transaction fail).
 */
export function createTronSender(options: TronSenderOptions): ChainSender {
  const network = resolveTronNetwork(options.tokens);
  const http = createTronHttp(options);
  const feeLimit = options.feeLimitSun ?? DEFAULT_FEE_LIMIT_SUN;
  if (feeLimit <= 0n || feeLimit > BigInt(Number.MAX_SAFE_INTEGER)) throw new ChainError("feeLimitSun is out of range", { retryable: false });
  const now = options.now ?? (() => Date.now());

  async function estimateFee(from: SigningKey, transfer: OutgoingTransfer): Promise<FeeEstimate> {
    const prepared = prepareTransfer(network, ownerHexOf(from.address), transfer);
    const parameters = await http.post("/wallet/getchainparameters", {}, chainParametersSchema);
    const parameter = (key: string): bigint => {
      const value = parameters.get(key);
      if (value === undefined) throw new ChainError(`tron: chain parameter ${key} is missing`, { retryable: true });
      return value;
    };
    // Upper bounds: the sender's free daily bandwidth and any staked energy or bandwidth make it cheaper.
    if (prepared.kind === "native") {
      const account = await http.post("/wallet/getaccount", { address: prepared.toHex, visible: false }, accountSchema);
      const feeMinor =
        account.address !== undefined
          ? TRX_TRANSFER_BANDWIDTH_BYTES * parameter("getTransactionFee")
          : // A new recipient account: the creation fee replaces the bandwidth burn.
            parameter("getCreateAccountFee") + parameter("getCreateNewAccountFeeInSystemContract");
      return { feeMinor, feeCurrency: network.nativeSymbol };
    }
    const simulation = await http.post(
      "/wallet/triggerconstantcontract",
      {
        owner_address: prepared.ownerHex,
        contract_address: prepared.token.contractHex,
        function_selector: TRC20_TRANSFER_SIGNATURE,
        parameter: prepared.callArguments,
        visible: false,
      },
      triggerConstantContractAnswerSchema,
    );
    if (simulation.result.result !== true) {
      throw new TronApiError("/wallet/triggerconstantcontract", simulation.result.code ?? null, decodeNodeMessage(simulation.result.message));
    }
    if (simulation.transaction?.ret?.[0]?.ret === "FAILED") {
      throw new ChainError(`tron: the ${prepared.token.symbol} contract would refuse this transfer (${decodeNodeMessage(simulation.result.message)})`, {
        retryable: false,
      });
    }
    if (simulation.energy_used === undefined) throw new ChainError("tron: triggerconstantcontract gave no energy estimate", { retryable: true });
    const energyFee = BigInt(simulation.energy_used) * parameter("getEnergyFee");
    // The node never burns more than the fee limit for energy.
    const feeMinor = (energyFee < feeLimit ? energyFee : feeLimit) + TRC20_TRANSFER_BANDWIDTH_BYTES * parameter("getTransactionFee");
    return { feeMinor, feeCurrency: network.nativeSymbol };
  }

  async function sign(from: SigningKey, transfer: OutgoingTransfer, context: SigningContext): Promise<SignedTransaction> {
    // Everything checkable without the chain is checked before any request.
    checkSigningKey(from);
    const prepared = prepareTransfer(network, ownerHexOf(from.address), transfer);
    const unsigned = prepared.kind === "native" ? await createTrxTransaction(http, prepared) : await createTrc20Transaction(http, prepared, feeLimit);
    const { txid, expiresAt } = verifyUnsignedTransaction(unsigned, prepared, feeLimit, now());
    // An identical transfer built in the same millisecond is the same transaction: it would
    // silently be the earlier one again.
    if (context.inFlight.some((earlier) => earlier.txid === txid)) {
      throw new ChainError(`tron: the node built ${txid} again (identical transfer in the same millisecond); build it anew`, { retryable: true });
    }
    const signature = signTronTxId(txid, from.privateKey);
    // What it burns depends on the staked bandwidth and energy at inclusion: the receipt tells (getTransaction).
    return { txid, raw: JSON.stringify({ ...unsigned, signature: [signature] }), consumes: { validUntilMs: expiresAt }, feeMinor: 0n };
  }

  async function getTransaction(txid: string): Promise<SentTransactionState> {
    if (!/^[0-9a-fA-F]{64}$/.test(txid)) throw new ChainError(`${txid} is not a Tron transaction id`, { retryable: false });
    const id = txid.toLowerCase();
    const info = await http.post("/wallet/gettransactioninfobyid", { value: id }, transactionInfoSchema);
    // Not in a block: pooled, or dropped; canStillLand tells which by its expiration.
    if (info.blockNumber === undefined) return { state: "unknown", confirmations: 0, blockHeight: null };
    const tip = await http.post("/wallet/getnowblock", {}, optionalBlockSchema);
    if (!tip) throw new ChainError("tron: the node has no latest block", { retryable: true });
    // A contract call that reverted or ran out of energy is in a block (its fee is spent) but moved nothing.
    const receiptResult = info.receipt?.result;
    const isFailed = info.result === "FAILED" || (receiptResult !== undefined && receiptResult !== "SUCCESS");
    // A lagging node behind a load balancer may report a tip below the transaction's block.
    const confirmations = Math.max(tip.height - info.blockNumber + 1, 1);
    return { state: isFailed ? "failed" : "confirmed", confirmations, blockHeight: info.blockNumber, feeMinor: BigInt(info.fee ?? 0) };
  }

  /**
   * Dead only on the chain's word, never this machine's clock: the node's head block is past the
   * expiration, and the blocks up to the expiration — read by number, from one made before the
   * transaction could have been built — do not hold it. A node missing some of those blocks
   * proves nothing (retryable).
   */
  async function canStillLand(signed: Pick<SignedTransaction, "txid" | "consumes">): Promise<boolean> {
    const expiresAt = signed.consumes.validUntilMs;
    if (expiresAt === undefined) throw new ChainError("a Tron transaction records its expiration", { retryable: false });
    const tip = await http.post("/wallet/getnowblock", {}, optionalBlockSchema);
    if (!tip || tip.timestampMs === null) throw new ChainError("tron: the node told no head block time", { retryable: true });
    if (tip.timestampMs <= expiresAt) return true;
    const id = signed.txid.toLowerCase();
    // java-tron builds a transaction at most MAX_EXPIRATION_AHEAD_MS before its expiration.
    let height = await findHeightAtOrBefore(tip, expiresAt - MAX_EXPIRATION_AHEAD_MS);
    while (height <= tip.height) {
      const end = Math.min(height + BLOCKS_PER_READ, tip.height + 1);
      const blocks = await http.post("/wallet/getblockbylimitnext", { startNum: height, endNum: end }, blockListSchema);
      if (blocks.length !== end - height) throw new ChainError("tron: the node lacks blocks of the transaction's lifetime", { retryable: true });
      for (const block of blocks) {
        if (block.transactions.some((transaction) => transaction.txID.toLowerCase() === id)) return true;
        if (block.timestampMs === null) throw new ChainError("tron: a block came without its time", { retryable: true });
        if (block.timestampMs > expiresAt) return false;
      }
      height = end;
    }
    return true;
  }

  /**
   * A block height whose block was made at or before `time`: from the head, stepping back by block
   * times (blocks are at least 3 s apart, so a step back never overshoots into the future), then
   * forward while more than a read's worth of blocks earlier.
   */
  async function findHeightAtOrBefore(tip: TronBlock, time: number): Promise<number> {
    let height = tip.height;
    let blockTime = tip.timestampMs!;
    for (let step = 0; step < 16; step++) {
      if (blockTime > time) {
        height = Math.max(0, height - Math.ceil((blockTime - time) / TRON_BLOCK_MS));
      } else if (time - blockTime > BLOCKS_PER_READ * TRON_BLOCK_MS && height < tip.height) {
        height = Math.min(tip.height, height + Math.floor((time - blockTime) / TRON_BLOCK_MS / 2));
      } else {
        return height;
      }
      const block = await http.post("/wallet/getblockbynum", { num: height }, optionalBlockSchema);
      if (!block || block.timestampMs === null) throw new ChainError(`tron: the node lacks block ${height}`, { retryable: true });
      blockTime = block.timestampMs;
      if (height === 0 && blockTime > time) return 0;
    }
    if (blockTime > time) throw new ChainError("tron: no block found before the transaction's lifetime", { retryable: true });
    return height;
  }

  async function getBalance(address: string, currency: string, readOptions: BalanceReadOptions = {}): Promise<bigint> {
    const ownerHex = tronAddressToHex(address);
    if (!ownerHex) throw new ChainError(`${address} is not a Tron address`, { retryable: false });
    const callOptions = { timeoutMs: readOptions.timeoutMs };
    if (currency === network.nativeSymbol) {
      const account = await http.post("/wallet/getaccount", { address: ownerHex, visible: false }, accountSchema, callOptions);
      // An account that does not exist yet answers `{}`, and a zero balance is left out.
      return BigInt(account.balance ?? 0);
    }
    const token = network.tokens.find((candidate) => candidate.symbol === currency);
    if (!token) throw new ChainError(`${currency} is not carried on ${network.id}`, { retryable: false });
    // A constant call runs on the node only; the holder itself is the caller, as java-tron wants one.
    const answer = await http.post(
      "/wallet/triggerconstantcontract",
      {
        owner_address: ownerHex,
        contract_address: token.contractHex,
        function_selector: TRC20_BALANCE_OF_SIGNATURE,
        parameter: encodeTrc20BalanceOfArgument(address),
        visible: false,
      },
      triggerConstantContractAnswerSchema,
      callOptions,
    );
    if (answer.result.result !== true) {
      throw new TronApiError("/wallet/triggerconstantcontract", answer.result.code ?? null, decodeNodeMessage(answer.result.message));
    }
    const word = answer.constant_result?.[0] ?? "";
    if (answer.transaction?.ret?.[0]?.ret === "FAILED" || !/^[0-9a-fA-F]{64}$/.test(word)) {
      throw new ChainError(`tron: balanceOf of the ${token.symbol} contract gave no amount (${decodeNodeMessage(answer.result.message) || "no uint256"})`, {
        retryable: false,
      });
    }
    return BigInt(`0x${word}`);
  }

  /** The transaction's TRX or TRC-20 transfer from the sender to the recipient, read from its block as the watcher reads deposits. */
  async function readDelivered(txid: string, sent: SentRecord, delivery: { toAddress: string; currency: string }): Promise<bigint> {
    if (!/^[0-9a-fA-F]{64}$/.test(txid)) throw new ChainError(`${txid} is not a Tron transaction id`, { retryable: false });
    const id = txid.toLowerCase();
    const info = await http.post("/wallet/gettransactioninfobyid", { value: id }, transactionInfoSchema);
    if (info.blockNumber === undefined) return 0n;
    const block = await http.post("/wallet/getblockbynum", { num: info.blockNumber }, optionalBlockSchema);
    if (!block || block.height !== info.blockNumber) throw new ChainError(`tron: block ${info.blockNumber} is not available from the node yet`, { retryable: true });
    const tokenByContractHex = new Map(network.tokens.map((token) => [token.contractHex, token]));
    return readBlockTransfers(network, tokenByContractHex, block)
      .filter((transfer) => transfer.txid === id && transfer.currency === delivery.currency && transfer.toAddress === delivery.toAddress && transfer.fromAddress === sent.fromAddress)
      .reduce((sum, transfer) => sum + transfer.amountMinor, 0n);
  }

  return {
    network: network.id,
    estimateFee,
    sign,
    broadcast: (signed: Pick<SignedTransaction, "txid" | "raw">) => broadcast(http, JSON.parse(signed.raw) as Record<string, unknown>, signed.txid),
    getTransaction,
    canStillLand,
    getBalance,
    readDelivered,
  };
}

function ownerHexOf(address: string): string {
  const hex = tronAddressToHex(address);
  if (!hex) throw new ChainError(`sender ${address} is not a Tron address`, { retryable: false });
  return hex;
}

/** Refuses a key that is malformed or does not belong to its address. */
function checkSigningKey(from: SigningKey): void {
  let address: string;
  try {
    if (from.privateKey.length !== 32) throw new Error("a Tron private key is 32 bytes");
    address = tronAddressOfPrivateKey(from.privateKey);
  } catch (error) {
    throw new ChainError("the signing key is not a valid secp256k1 private key", { retryable: false, cause: error });
  }
  if (address !== from.address) throw new ChainError(`the signing key does not belong to ${from.address}`, { retryable: false });
}

/** The transfer to build, after checking it fully without the chain. */
function prepareTransfer(network: TronNetwork, ownerHex: string, transfer: OutgoingTransfer): PreparedTransfer {
  const recipient = validateAddress(network.id, transfer.toAddress);
  if (!recipient.ok) {
    throw new ChainError(`recipient ${transfer.toAddress} is not a ${network.id} address (${recipient.reason})`, { retryable: false });
  }
  const toHex = tronAddressToHex(recipient.normalized);
  if (!toHex) throw new ChainError(`recipient ${transfer.toAddress} is not a Tron address`, { retryable: false });
  if (transfer.amountMinor <= 0n) throw new ChainError("the amount must be positive", { retryable: false });
  if (transfer.currency === network.nativeSymbol) {
    // The node reads and echoes amounts as JSON numbers: beyond 2^53 sun (9 billion TRX) they are not exact.
    if (transfer.amountMinor > BigInt(Number.MAX_SAFE_INTEGER)) throw new ChainError("the amount is too large for one TRX transfer", { retryable: false });
    return { kind: "native", ownerHex, toHex, amount: transfer.amountMinor };
  }
  const token = network.tokens.find((candidate) => candidate.symbol === transfer.currency);
  if (!token) throw new ChainError(`${transfer.currency} is not sent on ${network.id}`, { retryable: false });
  return { kind: "token", ownerHex, toHex, amount: transfer.amountMinor, token, callArguments: encodeTrc20TransferArguments(recipient.normalized, transfer.amountMinor) };
}

async function createTrxTransaction(http: TronHttp, prepared: Extract<PreparedTransfer, { kind: "native" }>): Promise<UnsignedTransaction> {
  return http.post(
    "/wallet/createtransaction",
    { owner_address: prepared.ownerHex, to_address: prepared.toHex, amount: Number(prepared.amount), visible: false },
    unsignedTransactionSchema,
  );
}

async function createTrc20Transaction(http: TronHttp, prepared: Extract<PreparedTransfer, { kind: "token" }>, feeLimit: bigint): Promise<UnsignedTransaction> {
  const answer = await http.post(
    "/wallet/triggersmartcontract",
    {
      owner_address: prepared.ownerHex,
      contract_address: prepared.token.contractHex,
      function_selector: TRC20_TRANSFER_SIGNATURE,
      parameter: prepared.callArguments,
      fee_limit: Number(feeLimit),
      call_value: 0,
      visible: false,
    },
    triggerSmartContractAnswerSchema,
  );
  if (answer.result.result !== true || !answer.transaction) {
    throw new TronApiError("/wallet/triggersmartcontract", answer.result.code ?? null, decodeNodeMessage(answer.result.message));
  }
  return answer.transaction;
}

function refuse(reason: string): ChainError {
  return new ChainError(`tron: refused to sign the node's transaction: ${reason}`, { retryable: false });
}

/**
 * Checks the node's unsigned transaction against the transfer asked for; returns the txid to sign
 * and the expiration. Throws (non-retryable) on any difference: nothing is signed then.
 */
function verifyUnsignedTransaction(
  unsigned: UnsignedTransaction,
  prepared: PreparedTransfer,
  feeLimit: bigint,
  nowMs: number,
): { txid: string; expiresAt: number } {
  try {
    return checkUnsignedTransaction(unsigned, prepared, feeLimit, nowMs);
  } catch (error) {
    if (error instanceof RawTransactionError) throw refuse(`raw_data_hex: ${error.message}`);
    throw error;
  }
}

function checkUnsignedTransaction(
  unsigned: UnsignedTransaction,
  prepared: PreparedTransfer,
  feeLimit: bigint,
  nowMs: number,
): { txid: string; expiresAt: number } {
  if (!isHex(unsigned.raw_data_hex)) throw refuse("raw_data_hex is not hex");
  const txid = computeTronTxId(unsigned.raw_data_hex);
  if (unsigned.txID.toLowerCase() !== txid) throw refuse("txID is not the sha256 of raw_data_hex");
  const raw = decodeRawTransaction(hexToBytes(unsigned.raw_data_hex));
  const contract = raw.contracts[0];
  if (!contract || raw.contracts.length !== 1) throw refuse("expected exactly one contract");
  if (contract.permissionId !== 0) throw refuse("a permission id is set");
  if (raw.data.length > 0) throw refuse("a memo is set");
  if (raw.expiration > BigInt(nowMs + MAX_EXPIRATION_AHEAD_MS)) throw refuse("the expiration is too far ahead");

  const ownerBytes = hexToBytes(prepared.ownerHex);
  const toBytes = hexToBytes(prepared.toHex);
  const jsonContract = unsigned.raw_data.contract[0];
  const jsonValue = jsonContract?.parameter.value;
  if (!jsonContract || !jsonValue || unsigned.raw_data.contract.length !== 1) throw refuse("raw_data lists other contracts than raw_data_hex");

  if (prepared.kind === "native") {
    if (contract.type !== TRANSFER_CONTRACT_TYPE || contract.typeUrl !== TRANSFER_CONTRACT_TYPE_URL) throw refuse("not a TransferContract");
    const fields = decodeTransferContract(contract.value);
    if (!bytesEqual(fields.ownerAddress, ownerBytes)) throw refuse("the owner is not the sender");
    if (!bytesEqual(fields.toAddress, toBytes)) throw refuse("the recipient differs");
    if (fields.amount !== prepared.amount) throw refuse("the amount differs");
    // The node re-encodes the JSON at broadcast: it must say the same as the bytes we sign.
    if (jsonContract.type !== "TransferContract" || jsonContract.parameter.type_url !== TRANSFER_CONTRACT_TYPE_URL) throw refuse("raw_data: contract type differs");
    if (!sameHex(jsonValue.owner_address, prepared.ownerHex)) throw refuse("raw_data: owner differs");
    if (!sameHex(jsonValue.to_address, prepared.toHex)) throw refuse("raw_data: recipient differs");
    if (!sameNumber(jsonValue.amount, prepared.amount)) throw refuse("raw_data: amount differs");
  } else {
    if (contract.type !== TRIGGER_SMART_CONTRACT_TYPE || contract.typeUrl !== TRIGGER_SMART_CONTRACT_TYPE_URL) throw refuse("not a TriggerSmartContract");
    const fields = decodeTriggerSmartContract(contract.value);
    const expectedData = `${TRC20_TRANSFER_SELECTOR}${prepared.callArguments}`;
    if (!bytesEqual(fields.ownerAddress, ownerBytes)) throw refuse("the owner is not the sender");
    if (!bytesEqual(fields.contractAddress, hexToBytes(prepared.token.contractHex))) throw refuse("the token contract differs");
    if (bytesToHex(fields.data) !== expectedData) throw refuse("the transfer call (recipient or amount) differs");
    if (fields.callValue !== 0n || fields.callTokenValue !== 0n || fields.tokenId !== 0n) throw refuse("the call sends TRX or TRC-10 tokens");
    if (raw.feeLimit !== feeLimit) throw refuse("the fee limit differs");
    if (jsonContract.type !== "TriggerSmartContract" || jsonContract.parameter.type_url !== TRIGGER_SMART_CONTRACT_TYPE_URL) throw refuse("raw_data: contract type differs");
    if (!sameHex(jsonValue.owner_address, prepared.ownerHex)) throw refuse("raw_data: owner differs");
    if (!sameHex(jsonValue.contract_address, prepared.token.contractHex)) throw refuse("raw_data: token contract differs");
    if (!sameHex(jsonValue.data, expectedData)) throw refuse("raw_data: transfer call differs");
    if (!sameNumber(jsonValue.call_value ?? 0, 0n)) throw refuse("raw_data: call value differs");
  }
  if (!sameHex(unsigned.raw_data.ref_block_bytes, bytesToHex(raw.refBlockBytes))) throw refuse("raw_data: reference block differs");
  if (!sameHex(unsigned.raw_data.ref_block_hash, bytesToHex(raw.refBlockHash))) throw refuse("raw_data: reference block differs");
  if (!sameNumber(unsigned.raw_data.expiration, raw.expiration)) throw refuse("raw_data: expiration differs");
  if (!sameNumber(unsigned.raw_data.timestamp ?? 0, raw.timestamp)) throw refuse("raw_data: timestamp differs");
  if (!sameNumber(unsigned.raw_data.fee_limit ?? 0, raw.feeLimit)) throw refuse("raw_data: fee limit differs");
  return { txid, expiresAt: Number(raw.expiration) };
}

function sameHex(value: unknown, expected: string): boolean {
  return typeof value === "string" && value.toLowerCase() === expected.toLowerCase();
}

function sameNumber(value: unknown, expected: bigint): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && BigInt(value) === expected;
}

/** Broadcasts the signed transaction: accepted once the node has pooled it (now or before). */
async function broadcast(http: TronHttp, signed: Record<string, unknown>, txid: string): Promise<BroadcastOutcome> {
  let answer: { result?: boolean; code?: string; message?: string; txid?: string };
  try {
    answer = await http.post("/wallet/broadcasttransaction", signed, broadcastAnswerSchema);
  } catch (error) {
    // The node refused (it answered), or the request never reached a servlet (HTTP 4xx): not sent.
    if (error instanceof TronApiError || (error instanceof ChainError && !error.retryable)) {
      return { kind: "rejected", reason: error.message, retryable: error instanceof ChainError && error.retryable };
    }
    // No usable answer: the node may have pooled it. Only the same bytes may follow.
    return { kind: "uncertain", reason: error instanceof Error ? error.message : "no answer" };
  }
  if (answer.result === true) {
    if (answer.txid !== undefined && answer.txid.toLowerCase() !== txid) {
      return { kind: "rejected", reason: `tron: the node pooled ${answer.txid} while ${txid} was sent`, retryable: false };
    }
    return { kind: "accepted" };
  }
  const code = answer.code ?? null;
  // These very bytes are pooled already: an earlier broadcast of them got through.
  if (code === "DUP_TRANSACTION_ERROR") return { kind: "accepted" };
  const message = decodeNodeMessage(answer.message);
  const reason = `tron: /wallet/broadcasttransaction refused (${code ?? "no code"}): ${message}`;
  // A TRX transfer the hot wallet cannot cover is refused at broadcast (its signing asks no balance).
  const isShortOfFunds = code === "CONTRACT_VALIDATE_ERROR" && /balance is not sufficient/i.test(message);
  return { kind: "rejected", reason, retryable: code !== null && RETRYABLE_BROADCAST_CODES.has(code), ...(isShortOfFunds ? { isShortOfFunds } : {}) };
}

