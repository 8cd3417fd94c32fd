import bs58 from "bs58";
import {
  PublicKey,
  SendTransactionError,
  SolanaJSONRPCError,
  SolanaJSONRPCErrorCode,
  type CompiledInstruction,
  type MessageCompiledInstruction,
  type TokenBalance,
  type VersionedTransactionResponse,
} from "@solana/web3.js";
import { ChainError } from "@/lib/chains/types";
import type { SolanaAccess, SolanaCompiledInstruction, SolanaTokenBalance, SolanaTransactionRecord } from "@/lib/chains/solana/solana-access";

/**
 * The part of a web3.js 1.x `Connection` this layer calls, with the arguments it passes. A real
 * `Connection` satisfies it; the tests pass failing or hanging fakes.
 */
export interface SolanaRpc {
  getLatestBlockhashAndContext(commitment: "confirmed"): Promise<{ context: { slot: number }; value: { blockhash: string } }>;
  getBlock(
    slot: number,
    config: { commitment: "confirmed"; maxSupportedTransactionVersion: 0; transactionDetails: "none"; rewards: false },
  ): Promise<{ blockhash: string } | null>;
  getSignaturesForAddress(
    address: PublicKey,
    options: { before?: string; limit: number },
    commitment: "confirmed",
  ): Promise<{ signature: string; slot: number; err: unknown }[]>;
  getTransaction(signature: string, config: { commitment: "confirmed"; maxSupportedTransactionVersion: 0 }): Promise<VersionedTransactionResponse | null>;
  getAccountInfo(address: PublicKey, commitment: "confirmed"): Promise<{ lamports: number; owner: PublicKey; data: Buffer; executable: boolean } | null>;
  getMinimumBalanceForRentExemption(size: number, commitment: "confirmed"): Promise<number>;
  getLatestBlockhash(commitment: "confirmed"): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  getBlockHeight(commitment: "finalized"): Promise<number>;
  sendRawTransaction(wireTransaction: Uint8Array, options: { preflightCommitment: "confirmed" }): Promise<string>;
  getSignatureStatuses(
    signatures: string[],
    config: { searchTransactionHistory: boolean },
  ): Promise<{ value: ({ slot: number; err: unknown; confirmationStatus?: "processed" | "confirmed" | "finalized" } | null)[] }>;
}

/** The RPC's page size limit for `getSignaturesForAddress`. */
const SIGNATURES_PAGE = 1000;

/** Codes for a slot that has no block (skipped), as opposed to one not available yet. */
const SKIPPED_SLOT_CODES: readonly unknown[] = [
  SolanaJSONRPCErrorCode.JSON_RPC_SERVER_ERROR_SLOT_SKIPPED,
  SolanaJSONRPCErrorCode.JSON_RPC_SERVER_ERROR_LONG_TERM_STORAGE_SLOT_SKIPPED,
];

function toInstruction(instruction: MessageCompiledInstruction): SolanaCompiledInstruction {
  return { programIdIndex: instruction.programIdIndex, accountIndexes: [...instruction.accountKeyIndexes], data: instruction.data };
}

function toInnerInstruction(instruction: CompiledInstruction): SolanaCompiledInstruction {
  // Inner instruction data comes base58-encoded in the JSON encoding.
  return { programIdIndex: instruction.programIdIndex, accountIndexes: [...instruction.accounts], data: bs58.decode(instruction.data) };
}

function toTokenBalances(balances: TokenBalance[] | null | undefined): SolanaTokenBalance[] {
  return (balances ?? []).map((balance) => ({ accountIndex: balance.accountIndex, mint: balance.mint, owner: balance.owner ?? null }));
}

/** Reduces an RPC `getTransaction` answer (JSON encoding, v0 supported) to the shared record. */
export function toSolanaTransactionRecord(signature: string, response: VersionedTransactionResponse): SolanaTransactionRecord {
  const { message } = response.transaction;
  const loaded = response.meta?.loadedAddresses;
  const accountKeys = [...message.staticAccountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])].map((key) => key.toBase58());
  return {
    signature,
    slot: response.slot,
    // Without meta the outcome is unknown: treat it as failed so nothing is credited from it.
    isFailed: !response.meta || response.meta.err !== null,
    accountKeys,
    instructions: message.compiledInstructions.map(toInstruction),
    innerInstructions: (response.meta?.innerInstructions ?? []).map((group) => ({
      index: group.index,
      instructions: group.instructions.map(toInnerInstruction),
    })),
    preTokenBalances: toTokenBalances(response.meta?.preTokenBalances),
    // The fee payer is the first account.
    ...(response.meta?.preBalances?.length && response.meta.postBalances?.length
      ? { payerLamports: { before: BigInt(response.meta.preBalances[0]), after: BigInt(response.meta.postBalances[0]) } }
      : {}),
    postTokenBalances: toTokenBalances(response.meta?.postTokenBalances),
    feeLamports: response.meta ? BigInt(response.meta.fee) : undefined,
  };
}

/**
 * Chain access over a JSON-RPC node. Runs only against a real network: the tests cover
 * `toSolanaTransactionRecord` and failure mapping with fakes, not these calls against a node.
 */
export function createConnectionAccess(rpc: SolanaRpc): SolanaAccess {
  return {
    async getTip() {
      // The blockhash of the bank at this slot is the hash of that slot's block.
      const { context, value } = await rpc.getLatestBlockhashAndContext("confirmed");
      return { slot: context.slot, blockhash: value.blockhash };
    },

    async getBlockHash(slot) {
      try {
        const block = await rpc.getBlock(slot, { commitment: "confirmed", maxSupportedTransactionVersion: 0, transactionDetails: "none", rewards: false });
        return block?.blockhash ?? null;
      } catch (error) {
        if (error instanceof SolanaJSONRPCError && SKIPPED_SLOT_CODES.includes(error.code)) return null;
        throw error;
      }
    },

    async listSignatures(address, afterSlot) {
      const key = new PublicKey(address);
      const found: { signature: string; slot: number; isFailed: boolean }[] = [];
      let before: string | undefined;
      // Newest first: page back until the cursor slot is reached.
      for (;;) {
        const page = await rpc.getSignaturesForAddress(key, { before, limit: SIGNATURES_PAGE }, "confirmed");
        for (const info of page) {
          if (info.slot <= afterSlot) return found;
          found.push({ signature: info.signature, slot: info.slot, isFailed: info.err !== null && info.err !== undefined });
        }
        if (page.length < SIGNATURES_PAGE) return found;
        before = page[page.length - 1].signature;
      }
    },

    async getTransaction(signature) {
      const response = await rpc.getTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
      return response ? toSolanaTransactionRecord(signature, response) : null;
    },

    async getAccount(address) {
      const info = await rpc.getAccountInfo(new PublicKey(address), "confirmed");
      if (!info) return null;
      // JSON-RPC sends lamports as a JSON number: exact below 2^53 lamports (about 9 million SOL).
      return { lamports: BigInt(info.lamports), owner: info.owner.toBase58(), data: new Uint8Array(info.data), executable: info.executable };
    },

    async getMinimumBalanceForRentExemption(size) {
      return BigInt(await rpc.getMinimumBalanceForRentExemption(size, "confirmed"));
    },

    async getLatestBlockhash() {
      const { blockhash, lastValidBlockHeight } = await rpc.getLatestBlockhash("confirmed");
      return { blockhash, lastValidBlockHeight };
    },

    async getFinalizedBlockHeight() {
      return rpc.getBlockHeight("finalized");
    },

    async sendTransaction(wireTransaction) {
      try {
        await rpc.sendRawTransaction(wireTransaction, { preflightCommitment: "confirmed" });
      } catch (error) {
        // Preflight simulation refused it: the chain says no, except for a blockhash the node
        // has not seen yet, which a later attempt with a fresh blockhash fixes.
        if (error instanceof SendTransactionError && !/blockhash not found/i.test(error.message)) {
          throw new ChainError("solana: the node refused the transaction", { retryable: false, cause: error });
        }
        throw error;
      }
    },

    async getSignatureStatus(signature) {
      const { value } = await rpc.getSignatureStatuses([signature], { searchTransactionHistory: true });
      const status = value[0];
      if (!status) return null;
      return {
        slot: status.slot,
        isFailed: status.err !== null && status.err !== undefined,
        commitment: status.confirmationStatus ?? "processed",
      };
    },
  };
}
