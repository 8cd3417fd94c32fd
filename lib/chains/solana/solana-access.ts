/**
 * The narrow "chain access" layer of the Solana adapter and sender. Everything that decides
 * (what counts as a deposit, amounts, ATA handling, building and signing transfers, following
 * them) lives in shared code that talks to a Solana node only through this interface. Two
 * implementations exist: `connection-access.ts` over a JSON-RPC node (@solana/web3.js 1.x
 * `Connection`) and `litesvm-access.ts` over an in-process litesvm for the tests.
 *
 * Methods throw `ChainError` when the node gave a definite answer (retryable or not); anything
 * else they throw is treated as a transient failure by the callers (see `call-access.ts`).
 */

/** An account as the node stores it. Lamports are bigint (u64 on chain). */
export interface SolanaAccountInfo {
  lamports: bigint;
  /** The program that owns the account (base58). */
  owner: string;
  data: Uint8Array;
  executable: boolean;
}

/** An instruction as compiled into a message: indexes into `accountKeys`. */
export interface SolanaCompiledInstruction {
  programIdIndex: number;
  accountIndexes: number[];
  data: Uint8Array;
}

/** A token account's state before or after a transaction, as RPC `pre/postTokenBalances` give it. */
export interface SolanaTokenBalance {
  accountIndex: number;
  mint: string;
  /** Owner of the token account; older nodes may omit it. */
  owner: string | null;
}

/** A confirmed transaction, reduced to what deposit detection reads. */
export interface SolanaTransactionRecord {
  signature: string;
  slot: number;
  /** True when the transaction landed but failed (fee charged, nothing else applied). */
  isFailed: boolean;
  /** Static keys, then the writable and read-only keys loaded from lookup tables: the order instruction indexes use. */
  accountKeys: string[];
  instructions: SolanaCompiledInstruction[];
  /** Instructions run by programs (CPI), grouped by the index of the top-level instruction that ran them. */
  innerInstructions: { index: number; instructions: SolanaCompiledInstruction[] }[];
  preTokenBalances: SolanaTokenBalance[];
  postTokenBalances: SolanaTokenBalance[];
  /** The fee it paid in lamports (charged even when it failed), where the node reports it. */
  feeLamports?: bigint;
  /** The fee payer's lamports before and after it, where the node reports them: rent it paid shows there, not in the fee. */
  payerLamports?: { before: bigint; after: bigint };
}

export interface SolanaSignatureInfo {
  signature: string;
  slot: number;
  isFailed: boolean;
}

export interface SolanaSignatureStatus {
  slot: number;
  isFailed: boolean;
  commitment: "processed" | "confirmed" | "finalized";
}

export interface SolanaAccess {
  /** The newest confirmed slot and the hash of its block. */
  getTip(): Promise<{ slot: number; blockhash: string }>;
  /** The hash of the block in `slot`, or null when the slot was skipped or is unknown. */
  getBlockHash(slot: number): Promise<string | null>;
  /** Confirmed signatures of transactions that mention `address`, in slots above `afterSlot`, newest first. */
  listSignatures(address: string, afterSlot: number): Promise<SolanaSignatureInfo[]>;
  /** A confirmed transaction, or null when the node does not (yet) serve it. */
  getTransaction(signature: string): Promise<SolanaTransactionRecord | null>;
  getAccount(address: string): Promise<SolanaAccountInfo | null>;
  /** Lamports an account of `size` data bytes needs to be rent-exempt. */
  getMinimumBalanceForRentExemption(size: number): Promise<bigint>;
  /** The newest blockhash, and the last block height at which a transaction referencing it can be processed. */
  getLatestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  /** The block height of the newest finalized block: past a blockhash's last valid height, it has expired for good. */
  getFinalizedBlockHeight(): Promise<number>;
  /** Broadcasts a signed transaction in wire format. */
  sendTransaction(wireTransaction: Uint8Array): Promise<void>;
  getSignatureStatus(signature: string): Promise<SolanaSignatureStatus | null>;
}
