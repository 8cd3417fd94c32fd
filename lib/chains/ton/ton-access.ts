import type { Address, Cell, StateInit, Transaction, TupleItem, TupleReader } from "@ton/core";

/**
 * The narrow "chain access" layer of the TON adapter and sender. What counts as a deposit, the
 * jetton-notification check, building, signing and following transfers are shared code; it talks
 * to TON only through this interface. Implementations: `ton-client-access.ts` over the HTTP API
 * (@ton/ton `TonClient`, toncenter v2) and `sandbox-access.ts` over an in-process @ton/sandbox.
 *
 * Transactions and cells are @ton/core objects on both sides: TonClient parses the API's BOCs
 * into them and the sandbox produces them directly, so the shared code reads the same types.
 * Methods throw `ChainError` for definite answers; anything else is treated as transient.
 */

export interface TonAccountState {
  status: "active" | "uninit" | "frozen" | "nonexist";
  /** Nanotons. */
  balance: bigint;
  /** The contract's persistent data (a wallet's seqno among it), when active. */
  data: Cell | null;
  /**
   * Unix time (seconds) of the block this state was read at: state and time come from one
   * answer, so "at time T the wallet had not applied seqno N" is one node's single fact.
   */
  atTime: number;
}

export interface TonAccess {
  /** Unix time (seconds) of the newest masterchain block the API answers from. */
  getChainTime(): Promise<number>;
  /** Transactions of one account, newest first; with `before`, only those older than that one. */
  getTransactions(address: Address, page: { limit: number; before?: { lt: bigint; hash: Buffer } }): Promise<Transaction[]>;
  getAccountState(address: Address): Promise<TonAccountState>;
  /** Runs a get-method; throws when the account is not active or the method exits non-zero. */
  runGetMethod(address: Address, method: string, args: TupleItem[]): Promise<TupleReader>;
  /** Broadcasts a serialized message (an external message to a wallet). */
  sendMessage(message: Cell): Promise<void>;
  /**
   * Nanotons the account pays to process an external message with this body: import, storage
   * and gas fees plus the forwarding fees of the messages it sends (not their values).
   */
  estimateExternalFee(address: Address, message: { body: Cell; init: StateInit | null }): Promise<bigint>;
}
