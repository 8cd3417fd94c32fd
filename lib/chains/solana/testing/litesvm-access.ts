import bs58 from "bs58";
import { address, getTransactionDecoder, lamports } from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { Keypair, TransactionMessage, VersionedTransaction, type TransactionInstruction } from "@solana/web3.js";
import { ACCOUNT_SIZE, AccountLayout } from "@solana/spl-token";
import { ChainError } from "@/lib/chains/types";
import type { SolanaAccess, SolanaTokenBalance, SolanaTransactionRecord } from "@/lib/chains/solana/solana-access";
import { LAMPORTS_PER_SIGNATURE, TOKEN_PROGRAM_ID } from "@/lib/chains/solana/solana-assets";

/**
 * Chain access over an in-process litesvm (1.5.0, built on @solana/kit), for tests. litesvm is a
 * bank without blocks, history queries or slots that move by themselves, so this layer keeps
 * what an RPC node would answer from:
 * - every transaction sent through it is recorded with the slot it ran in (the litesvm clock);
 * - `advanceSlots` warps the clock forward and expires the blockhash, standing in for new blocks
 *   (past the blockhash's last valid block height: each advance counts as one block height more);
 *   each slot reached that way gets that blockhash as its block hash (others count as skipped);
 * - signatures-for-address and get-transaction answer from the records; token balances of the
 *   record are read from the token accounts just before and after the transaction.
 * Airdrops (`airdrop`) are not recorded: they fund test payers and are not deposits.
 * Transactions with address lookup tables are refused: nothing here builds them.
 */
export interface LiteSvmChain extends SolanaAccess {
  readonly svm: LiteSVM;
  airdrop(recipient: string, amount: bigint): void;
  /** Moves the clock `slots` forward with a fresh blockhash; returns the new slot. */
  advanceSlots(slots: number): number;
  /** Builds, signs (first signer pays) and sends a transaction; returns its signature. */
  sendInstructions(instructions: TransactionInstruction[], signers: Keypair[]): Promise<string>;
}

export function createLiteSvmAccess(svm: LiteSVM = new LiteSVM()): LiteSvmChain {
  const records: SolanaTransactionRecord[] = [];
  const bySignature = new Map<string, SolanaTransactionRecord>();
  const blockHashes = new Map<number, string>();
  let blockHeight = 0;
  const currentSlot = () => Number(svm.getClock().slot);
  blockHashes.set(currentSlot(), svm.latestBlockhash());

  function tokenBalancesOf(keys: readonly string[]): SolanaTokenBalance[] {
    const balances: SolanaTokenBalance[] = [];
    keys.forEach((key, accountIndex) => {
      const account = svm.getAccount(address(key));
      if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ID || account.data.length !== ACCOUNT_SIZE) return;
      const state = AccountLayout.decode(account.data);
      balances.push({ accountIndex, mint: state.mint.toBase58(), owner: state.owner.toBase58() });
    });
    return balances;
  }

  const chain: LiteSvmChain = {
    svm,

    async getTip() {
      const slot = currentSlot();
      return { slot, blockhash: blockHashes.get(slot) ?? svm.latestBlockhash() };
    },

    async getBlockHash(slot) {
      return blockHashes.get(slot) ?? null;
    },

    async listSignatures(target, afterSlot) {
      return records
        .filter((record) => record.slot > afterSlot && record.accountKeys.includes(target))
        .reverse()
        .map((record) => ({ signature: record.signature, slot: record.slot, isFailed: record.isFailed }));
    },

    async getTransaction(signature) {
      return bySignature.get(signature) ?? null;
    },

    async getAccount(target) {
      const account = svm.getAccount(address(target));
      if (!account.exists) return null;
      return { lamports: account.lamports, owner: account.programAddress, data: account.data, executable: account.executable };
    },

    async getMinimumBalanceForRentExemption(size) {
      return svm.minimumBalanceForRentExemption(BigInt(size));
    },

    async getLatestBlockhash() {
      // litesvm keeps one blockhash until a test expires it: valid up to the current height.
      return { blockhash: svm.latestBlockhash(), lastValidBlockHeight: blockHeight };
    },

    async getFinalizedBlockHeight() {
      return blockHeight;
    },

    async sendTransaction(wireTransaction) {
      const decoded = VersionedTransaction.deserialize(wireTransaction);
      const { message } = decoded;
      if (message.addressTableLookups.length > 0) throw new Error("litesvm access: address lookup tables are not supported");
      const accountKeys = message.staticAccountKeys.map((key) => key.toBase58());
      const preTokenBalances = tokenBalancesOf(accountKeys);
      const lamportsOf = (key: string) => {
        const account = svm.getAccount(address(key));
        return account.exists ? account.lamports : 0n;
      };
      const payerBefore = lamportsOf(accountKeys[0]);

      const result = svm.sendTransaction(getTransactionDecoder().decode(wireTransaction));
      if (result instanceof FailedTransactionMetadata) {
        // An RPC node's preflight refuses such a transaction the same way: definite, not retryable.
        throw new ChainError(`solana: the transaction failed (${String(result.err())})`, { retryable: false, cause: result.meta().logs() });
      }
      const record: SolanaTransactionRecord = {
        signature: bs58.encode(decoded.signatures[0]),
        slot: currentSlot(),
        isFailed: false,
        accountKeys,
        instructions: message.compiledInstructions.map((instruction) => ({
          programIdIndex: instruction.programIdIndex,
          accountIndexes: [...instruction.accountKeyIndexes],
          data: instruction.data,
        })),
        innerInstructions: result.innerInstructions().map((group, index) => ({
          index,
          instructions: group.map((inner) => ({
            programIdIndex: inner.instruction().programIdIndex(),
            accountIndexes: [...inner.instruction().accounts()],
            data: inner.instruction().data(),
          })),
        })),
        preTokenBalances,
        postTokenBalances: tokenBalancesOf(accountKeys),
        // litesvm charges the default fee: 5 000 lamports per signature.
        feeLamports: BigInt(decoded.signatures.length) * LAMPORTS_PER_SIGNATURE,
        payerLamports: { before: payerBefore, after: lamportsOf(accountKeys[0]) },
      };
      records.push(record);
      bySignature.set(record.signature, record);
    },

    async getSignatureStatus(signature) {
      const record = bySignature.get(signature);
      // litesvm has no forks: what ran is final.
      return record ? { slot: record.slot, isFailed: record.isFailed, commitment: "finalized" } : null;
    },

    airdrop(recipient, amount) {
      const result = svm.airdrop(address(recipient), lamports(amount));
      if (!result || result instanceof FailedTransactionMetadata) throw new Error(`litesvm airdrop to ${recipient} failed`);
    },

    advanceSlots(slots) {
      const slot = currentSlot() + slots;
      svm.warpToSlot(BigInt(slot));
      svm.expireBlockhash();
      blockHeight++;
      blockHashes.set(slot, svm.latestBlockhash());
      return slot;
    },

    async sendInstructions(instructions, signers) {
      const message = new TransactionMessage({ payerKey: signers[0].publicKey, recentBlockhash: svm.latestBlockhash(), instructions }).compileToLegacyMessage();
      const transaction = new VersionedTransaction(message);
      transaction.sign(signers);
      await chain.sendTransaction(transaction.serialize());
      return bs58.encode(transaction.signatures[0]);
    },
  };
  return chain;
}
