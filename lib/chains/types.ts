/** A transfer to one of the service's addresses, as a chain reports it. Amounts in on-chain minor units. */
export interface ObservedTransfer {
  network: string;
  /** Settlement symbol (native coin or token). */
  currency: string;
  txid: string;
  /** Output index (UTXO) or log/instruction index: with txid, identifies the transfer. */
  position: number;
  toAddress: string;
  /** Empty where the family does not know a single payer (UTXO). */
  fromAddress: string;
  amountMinor: bigint;
  /** Null while in the mempool. */
  blockHeight: number | null;
  blockHash: string | null;
}

export interface ChainTip {
  height: number;
  hash: string;
}

/** What a family can and cannot do; services ask this instead of naming networks. */
export interface ChainCapabilities {
  hasMemo: boolean;
  knowsPayerAddress: boolean;
}

/**
 * One network's chain, real or sandbox. Adapters exchange plain data and never touch the
 * service's business tables; watchers (lib/jobs/handlers) do that.
 */
export interface ChainAdapter {
  network: string;
  source: "sandbox" | "rpc";
  capabilities: ChainCapabilities;
  /**
   * Runs `work` (a watcher pass) with every read sent to one backend, where a network has
   * several endpoints: a tip from one node and block hashes from a lagging other would look like
   * a reorganisation. Absent where there is one backend.
   */
  withOneBackend?<T>(work: () => Promise<T>): Promise<T>;
  getTip(): Promise<ChainTip>;
  /**
   * Transfers of the network's catalogue assets in blocks above `afterHeight` up to the tip,
   * and those still in the mempool. The watcher keeps those to the service's addresses: an
   * adapter need not know them (thousands of live invoices would make every scan heavy).
   */
  scanTransfers(input: { afterHeight: number }): Promise<ObservedTransfer[]>;
  /** The hash of the block at a height, or null when there is none (reorganisation checks). */
  getBlockHash(height: number): Promise<string | null>;
}

/** A transfer the service sends (a payout or a sweep). Amount in the asset's on-chain minor units. */
export interface OutgoingTransfer {
  /** Catalogue symbol: the network's native coin or one of its tokens. */
  currency: string;
  toAddress: string;
  amountMinor: bigint;
  /** Destination tag/comment where the family has one (TON); ignored elsewhere. */
  memo?: string;
  /**
   * Where change returns on families that make change (UTXO); the sending key's own address when
   * absent. A sweep names the hot wallet, so a deposit address never receives change (which its
   * watcher would otherwise see as a new payment).
   */
  changeAddress?: string;
}

/** A key the service controls (hot wallet or deposit address), as the family's signer needs it. */
export interface SigningKey {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  address: string;
}

export interface FeeEstimate {
  /** In the minor units of `feeCurrency`. */
  feeMinor: bigint;
  /** The coin that pays the fee (the network's native coin). */
  feeCurrency: string;
}

/** What the chain says about a transaction the service sent. */
export interface SentTransactionState {
  state: "pending" | "confirmed" | "failed" | "unknown";
  confirmations: number;
  blockHeight: number | null;
  /**
   * The network fee the chain charged, in the native coin's minor units, when it is in a block
   * (a reverted EVM call pays its gas too); absent where the family cannot read it.
   */
  feeMinor?: bigint;
  /**
   * With "failed": the recipient refused what was sent (a bounced TON message, a jetton wallet
   * that would not take it). Sending the same again would be refused again.
   */
  isRefusedByRecipient?: boolean;
  /** The transaction that landed, when it is an earlier signing the record supersedes (a fee bump that was not needed). */
  landedTxid?: string;
}

/**
 * The chain resources a signed transaction consumes. The caller persists them with the signed
 * bytes, in the same database transaction, before anything is broadcast; they are handed back to
 * the sender (as `SigningContext.inFlight`) for every later signing from the same key.
 */
export interface ConsumedResources {
  /** EVM: the account nonce. */
  nonce?: number;
  /** EVM: the chain's height when it was signed; it cannot be in an earlier block. */
  signedAtHeight?: number;
  /** UTXO: the outpoints (`txid:vout`) the transaction spends. */
  outpoints?: string[];
  /** TON: the wallet seqno. */
  seqno?: number;
  /** Solana: the recent blockhash the transaction references. */
  blockhash?: string;
  /**
   * The last moment the transaction can enter a block: a block height (Solana's
   * lastValidBlockHeight), or a time in Unix milliseconds (Tron's expiration, TON's valid_until).
   */
  validUntilHeight?: number;
  validUntilMs?: number;
  /**
   * Earlier signings of the same transfer with the same resources, replaced by this one for a
   * higher fee (EVM: the same nonce; UTXO: the same inputs). Only one of them can land: any of
   * them landing is this transfer landing.
   */
  supersedes?: string[];
  /**
   * TON: the chain time (Unix milliseconds) the message was signed at. It cannot be in an earlier
   * transaction, so a search of the wallet's history for it stops there.
   */
  signedAtMs?: number;
}

/**
 * A sent transaction as the service's database records it: what a family needs to find it again
 * from any process, after any restart (a TON message hash names no wallet and no time).
 */
export interface SentRecord {
  fromAddress: string;
  consumes: ConsumedResources;
  /** What it sends: a family whose fee figure leaves out other costs (rent) works the cost out from the payer's balance. */
  transfer?: { currency: string; amountMinor: bigint };
}

/** A transaction signed and not yet broadcast: exactly the bytes to send, again and again if need be. */
export interface SignedTransaction {
  txid: string;
  /** The serialized signed transaction, as the family broadcasts it (hex, base64 or JSON text). */
  raw: string;
  consumes: ConsumedResources;
  /** The fee, in the native coin's minor units: exact where the family fixes it at signing (UTXO), else an upper bound. */
  feeMinor: bigint;
}

/** How one balance read is made. */
export interface BalanceReadOptions {
  /**
   * How long the read may take, in milliseconds: past it the read fails with a retryable
   * ChainError. The sender's own request timeout when absent. Sandbox chains answer from the
   * service's database and ignore it.
   */
  timeoutMs?: number;
}

/** What the caller knows about the same key's transactions that are signed and not yet settled. */
export interface SigningContext {
  inFlight: ReadonlyArray<Pick<SignedTransaction, "txid" | "consumes">>;
}

/** The node's answer to a broadcast. */
export type BroadcastOutcome =
  /** The node has it (now, or from an earlier broadcast of the same bytes). */
  | { kind: "accepted" }
  /**
   * The node answered no. `retryable`: the same bytes may be accepted later (busy node, low fee
   * for now); `isShortOfFunds`: refused only because the sending key lacks the funds.
   */
  | { kind: "rejected"; reason: string; retryable: boolean; isShortOfFunds?: boolean }
  /** No usable answer: the node may have it. Only the same bytes may follow. */
  | { kind: "uncertain"; reason: string };

/**
 * The sending half of a chain, in the steps a crash-safe sender needs: sign (using the
 * resources the caller reserved in its database, broadcasting nothing), broadcast the exact
 * bytes (as often as needed), follow the transaction, and tell when one that the chain does not
 * know can never land any more (so that signing anew cannot pay twice). Keys never leave the process.
 */
export interface ChainSender {
  network: string;
  estimateFee(from: SigningKey, transfer: OutgoingTransfer): Promise<FeeEstimate>;
  /** Builds and signs one transfer; throws ChainError on a refusal (bad input, missing funds). */
  sign(from: SigningKey, transfer: OutgoingTransfer, context: SigningContext): Promise<SignedTransaction>;
  broadcast(signed: Pick<SignedTransaction, "txid" | "raw">): Promise<BroadcastOutcome>;
  /**
   * Where a transaction stands. `sent`, the database's record of it, is required by families
   * whose transaction ids do not say where to look (TON); the others ignore it.
   */
  getTransaction(txid: string, sent?: SentRecord): Promise<SentTransactionState>;
  /**
   * Whether a transaction that the chain does not report (not in a block, not pending) can still
   * land: false once it provably cannot — its nonce or seqno used by another, an input spent
   * elsewhere, its reference block, blockhash or lifetime expired. Only a chain fact answers
   * false, read so that one lagging node cannot fake it; an answer that settles nothing (history
   * behind the state, a node without the block asked for) is true: the caller waits and asks again.
   */
  canStillLand(signed: Pick<SignedTransaction, "txid" | "consumes">, from: Pick<SigningKey, "address">): Promise<boolean>;
  /**
   * Families that can replace a transaction stuck unmined (EVM: the same nonce; UTXO:
   * replace-by-fee, the same inputs): once it has waited `afterBlocks` blocks since it was signed
   * and is still not in a block, the same transfer signed again with the same resources and a fee
   * the node's replacement rule accepts (its `consumes.supersedes` names every earlier signing).
   * Null when it is not stuck (mined, or not waited long enough).
   */
  bump?(from: SigningKey, transfer: OutgoingTransfer, stuck: Pick<SignedTransaction, "txid" | "raw" | "consumes">, options: { afterBlocks: number }): Promise<SignedTransaction | null>;
  /**
   * What the mined transaction `txid`, sent from `sent.fromAddress`, delivered to `toAddress` in
   * `currency` (minor units), read from the chain's own record of it (outputs, a successful
   * receipt's logs): 0 when it delivered nothing there. Reconciliation proves with it that a paid
   * payout reached its recipient with its amount. Families without it prove the transaction only.
   */
  readDelivered?(txid: string, sent: SentRecord, delivery: { toAddress: string; currency: string }): Promise<bigint>;
  /**
   * What `address` holds of `currency` (the network's native coin or one of its catalogue tokens),
   * in that asset's on-chain minor units, as this sender could spend it: e.g. 1.5 ETH is
   * 1500000000000000000n. An account or token account that does not exist holds 0n. One attempt,
   * never retried: a balance is wanted now, and the caller asks again later. Throws ChainError:
   * retryable when the node does not answer (in time), not retryable for a currency the network
   * does not carry or an address that is not the network's.
   */
  getBalance(address: string, currency: string, options?: BalanceReadOptions): Promise<bigint>;
}

/**
 * A failure talking to a chain; `retryable` says whether the same call may succeed later, and
 * `isShortOfFunds` that a refusal is only for want of funds in the sending key (the same
 * transfer may go once they arrive).
 */
export class ChainError extends Error {
  readonly retryable: boolean;
  readonly isShortOfFunds: boolean;
  constructor(message: string, options: { retryable: boolean; isShortOfFunds?: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "ChainError";
    this.retryable = options.retryable;
    this.isShortOfFunds = options.isShortOfFunds ?? false;
  }
}
