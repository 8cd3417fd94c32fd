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
}

/**
 * The sending half of a chain: build, estimate, sign and broadcast transfers from keys the
 * service controls, and follow them to confirmation. Concurrent sends from one key must stay
 * correct (nonces, UTXO selection): implementations serialise per key where the family needs it.
 */
export interface ChainSender {
  network: string;
  estimateFee(from: SigningKey, transfer: OutgoingTransfer): Promise<FeeEstimate>;
  /** Builds, signs and broadcasts; returns the transaction id. Throws ChainError on refusal. */
  send(from: SigningKey, transfer: OutgoingTransfer): Promise<{ txid: string }>;
  getTransaction(txid: string): Promise<SentTransactionState>;
}

/** A failure talking to a chain; `retryable` says whether the same call may succeed later. */
export class ChainError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "ChainError";
    this.retryable = options.retryable;
  }
}
