import bs58 from "bs58";
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction, type TransactionInstruction } from "@solana/web3.js";
import {
  ACCOUNT_SIZE,
  AccountLayout,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  MintLayout,
} from "@solana/spl-token";
import { validateAddress } from "@/lib/chains/addresses";
import { ChainError, type BalanceReadOptions, type BroadcastOutcome, type ChainSender, type FeeEstimate, type OutgoingTransfer, type SentRecord, type SentTransactionState, type SignedTransaction, type SigningContext, type SigningKey } from "@/lib/chains/types";
import { callChainAccess, DEFAULT_ACCESS_TIMEOUT_MS } from "@/lib/chains/call-access";
import type { SolanaAccess } from "@/lib/chains/solana/solana-access";
import { buildSolanaWatchIndex, extractSolanaDeposits } from "@/lib/chains/solana/extract-solana-deposits";
import { LAMPORTS_PER_SIGNATURE, resolveSolanaMints, SOL_SYMBOL, SOLANA_NETWORK, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM_ID } from "@/lib/chains/solana/solana-assets";

export interface SolanaSenderOptions {
  access: SolanaAccess;
  /**
   * Where balances are read: a layer that makes one attempt per call (no retries on rate limits),
   * for readers that want an answer now. `access` when absent.
   */
  balanceAccess?: SolanaAccess;
  /** Symbol → mint overrides for catalogue tokens (a local test mint). */
  mints?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

function refuse(message: string, cause?: unknown): ChainError {
  return new ChainError(`solana: ${message}`, { retryable: false, cause });
}

function shortOfFunds(message: string): ChainError {
  return new ChainError(`solana: ${message}`, { retryable: false, isShortOfFunds: true });
}

/** The web3.js keypair of a signing key; refuses keys that do not match their address. */
export function solanaKeypairOf(key: SigningKey): Keypair {
  let keypair: Keypair;
  try {
    // A SLIP-10 key is the 32-byte seed; a Solana CLI key file holds seed + public key (64 bytes).
    keypair = key.privateKey.length === 64 ? Keypair.fromSecretKey(key.privateKey) : Keypair.fromSeed(key.privateKey);
  } catch (error) {
    throw refuse("the signing key is not an ed25519 key", error);
  }
  const publicKey = keypair.publicKey.toBytes();
  const isSameKey = publicKey.length === key.publicKey.length && publicKey.every((byte, i) => byte === key.publicKey[i]);
  if (!isSameKey || keypair.publicKey.toBase58() !== key.address) throw refuse("the signing key does not belong to its address");
  return keypair;
}

/** What one outgoing transfer needs: its instructions and what it costs the hot wallet. */
interface TransferPlan {
  instructions: TransactionInstruction[];
  /** Base fee plus the rent of an ATA created for the recipient (lamports). */
  feeLamports: bigint;
  /** Lamports leaving the hot wallet: amount (SOL) plus fee. */
  lamportsNeeded: bigint;
  /** For token transfers: the hot wallet's token balance and what the transfer takes. */
  tokens?: { available: bigint; needed: bigint };
  /** Rent-exempt minimum of a data-less account, for the SOL balance that stays behind. */
  minimumWalletBalance: bigint;
}

/**
 * The sending half of Solana: SOL and SPL payouts from a hot wallet key, signed locally. A token
 * payout creates the recipient's ATA when it is missing (idempotently, rent paid by the hot
 * wallet) and moves the tokens with `TransferChecked`, so a wrong mint or decimals fails on chain
 * instead of paying something else.
 */
export function createSolanaSender(options: SolanaSenderOptions): ChainSender {
  const { access } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_ACCESS_TIMEOUT_MS;
  const mints = resolveSolanaMints(options.mints);
  const call = <T>(what: string, run: () => Promise<T>) => callChainAccess("solana", what, timeoutMs, run);
  const balanceAccess = options.balanceAccess ?? access;

  function checkTransfer(transfer: OutgoingTransfer): { recipient: PublicKey; mint: PublicKey | null } {
    if (transfer.amountMinor <= 0n) throw refuse("the amount must be positive");
    const validation = validateAddress(SOLANA_NETWORK, transfer.toAddress);
    if (!validation.ok) throw refuse(`the recipient is not a Solana address (${validation.reason})`);
    if (transfer.currency === SOL_SYMBOL) return { recipient: new PublicKey(validation.normalized), mint: null };
    const mint = mints.get(transfer.currency);
    if (!mint) throw refuse(`${transfer.currency} is not paid on Solana`);
    return { recipient: new PublicKey(validation.normalized), mint: new PublicKey(mint) };
  }

  async function planTransfer(payer: PublicKey, transfer: OutgoingTransfer): Promise<TransferPlan> {
    const { recipient, mint } = checkTransfer(transfer);
    const minimumWalletBalance = await call("getMinimumBalanceForRentExemption", () => access.getMinimumBalanceForRentExemption(0));
    const recipientAccount = await call("getAccount", () => access.getAccount(recipient.toBase58()));
    // A token account or mint as "wallet" address would make an ATA nobody can ever sign for.
    if (recipientAccount?.owner === TOKEN_PROGRAM_ID) throw refuse("the recipient is a token account, not a wallet address");

    if (!mint) {
      // The runtime refuses to leave a new account below the rent-exempt minimum.
      if (!recipientAccount && transfer.amountMinor < minimumWalletBalance) {
        throw refuse(`a new account needs at least ${minimumWalletBalance} lamports`);
      }
      return {
        instructions: [SystemProgram.transfer({ fromPubkey: payer, toPubkey: recipient, lamports: transfer.amountMinor })],
        feeLamports: LAMPORTS_PER_SIGNATURE,
        lamportsNeeded: transfer.amountMinor + LAMPORTS_PER_SIGNATURE,
        minimumWalletBalance,
      };
    }

    const mintAccount = await call("getAccount", () => access.getAccount(mint.toBase58()));
    if (!mintAccount || mintAccount.owner !== TOKEN_PROGRAM_ID || mintAccount.data.length !== MINT_SIZE) {
      throw refuse(`the ${transfer.currency} mint is not an SPL Token mint on this chain`);
    }
    const decimals = MintLayout.decode(mintAccount.data).decimals;
    const sourceAta = getAssociatedTokenAddressSync(mint, payer, true);
    const recipientAta = getAssociatedTokenAddressSync(mint, recipient, true);
    const [sourceAccount, recipientAtaAccount] = await Promise.all([
      call("getAccount", () => access.getAccount(sourceAta.toBase58())),
      call("getAccount", () => access.getAccount(recipientAta.toBase58())),
    ]);
    const available = sourceAccount && sourceAccount.data.length === ACCOUNT_SIZE ? AccountLayout.decode(sourceAccount.data).amount : 0n;

    const instructions: TransactionInstruction[] = [];
    let rentLamports = 0n;
    if (!recipientAtaAccount) {
      // Idempotent: if someone creates the ATA between our read and the transaction, it still succeeds.
      instructions.push(createAssociatedTokenAccountIdempotentInstruction(payer, recipientAta, recipient, mint));
      rentLamports = await call("getMinimumBalanceForRentExemption", () => access.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE));
    }
    instructions.push(createTransferCheckedInstruction(sourceAta, mint, recipientAta, payer, transfer.amountMinor, decimals));
    const feeLamports = LAMPORTS_PER_SIGNATURE + rentLamports;
    return { instructions, feeLamports, lamportsNeeded: feeLamports, tokens: { available, needed: transfer.amountMinor }, minimumWalletBalance };
  }

  async function checkBalances(payer: PublicKey, plan: TransferPlan): Promise<void> {
    const wallet = await call("getAccount", () => access.getAccount(payer.toBase58()));
    const lamports = wallet?.lamports ?? 0n;
    const remaining = lamports - plan.lamportsNeeded;
    // The hot wallet must stay rent-exempt (or be emptied exactly), or the runtime refuses the transaction.
    if (remaining < 0n || (remaining > 0n && remaining < plan.minimumWalletBalance)) {
      throw shortOfFunds(`insufficient SOL in the hot wallet: ${lamports} lamports, ${plan.lamportsNeeded} needed`);
    }
    if (plan.tokens && plan.tokens.available < plan.tokens.needed) {
      throw shortOfFunds(`insufficient tokens in the hot wallet: ${plan.tokens.available}, ${plan.tokens.needed} needed`);
    }
  }

  return {
    network: SOLANA_NETWORK,

    async estimateFee(from: SigningKey, transfer: OutgoingTransfer): Promise<FeeEstimate> {
      const payer = solanaKeypairOf(from).publicKey;
      const plan = await planTransfer(payer, transfer);
      return { feeMinor: plan.feeLamports, feeCurrency: SOL_SYMBOL };
    },

    async sign(from: SigningKey, transfer: OutgoingTransfer, context: SigningContext): Promise<SignedTransaction> {
      // Refuse bad input before any key handling or node call.
      checkTransfer(transfer);
      const keypair = solanaKeypairOf(from);
      const plan = await planTransfer(keypair.publicKey, transfer);
      await checkBalances(keypair.publicKey, plan);
      const { blockhash, lastValidBlockHeight } = await call("getLatestBlockhash", () => access.getLatestBlockhash());
      const message = new TransactionMessage({ payerKey: keypair.publicKey, recentBlockhash: blockhash, instructions: plan.instructions }).compileToLegacyMessage();
      const transaction = new VersionedTransaction(message);
      transaction.sign([keypair]);
      const signature = bs58.encode(transaction.signatures[0]);
      // Signatures are deterministic: two equal transfers signed with the same blockhash are one
      // transaction, and the second would silently be the first one again.
      if (context.inFlight.some((earlier) => earlier.txid === signature)) {
        throw new ChainError("solana: an identical transfer was just signed with this blockhash; retry after the next block", { retryable: true });
      }
      return { txid: signature, raw: Buffer.from(transaction.serialize()).toString("base64"), consumes: { blockhash, validUntilHeight: lastValidBlockHeight }, feeMinor: plan.feeLamports };
    },

    async broadcast(signed: Pick<SignedTransaction, "txid" | "raw">): Promise<BroadcastOutcome> {
      try {
        await call("sendTransaction", () => access.sendTransaction(Buffer.from(signed.raw, "base64")));
        return { kind: "accepted" };
      } catch (error) {
        if (error instanceof ChainError && !error.retryable) {
          // Sent before (a retry after a lost answer): the node refuses the duplicate, but it landed.
          const status = await call("getSignatureStatus", () => access.getSignatureStatus(signed.txid)).catch(() => null);
          return status ? { kind: "accepted" } : { kind: "rejected", reason: error.message, retryable: false };
        }
        // The broadcast may have reached the node before the failure: if it is known, it was sent.
        const status = await call("getSignatureStatus", () => access.getSignatureStatus(signed.txid)).catch(() => null);
        return status ? { kind: "accepted" } : { kind: "uncertain", reason: error instanceof Error ? error.message : "no answer" };
      }
    },

    async canStillLand(signed) {
      const lastValidBlockHeight = signed.consumes.validUntilHeight;
      if (lastValidBlockHeight === undefined) throw refuse("a Solana transaction records the last block height its blockhash is valid at");
      // Once a finalized block is past its blockhash's last valid height, a transaction that has
      // not landed never will. A node that lags reports a lower height: it can only make it wait.
      return (await call("getFinalizedBlockHeight", () => access.getFinalizedBlockHeight())) <= lastValidBlockHeight;
    },

    async getBalance(address: string, currency: string, readOptions: BalanceReadOptions = {}): Promise<bigint> {
      const validation = validateAddress(SOLANA_NETWORK, address);
      if (!validation.ok) throw refuse(`${address} is not a Solana address (${validation.reason})`);
      const mint = currency === SOL_SYMBOL ? null : mints.get(currency);
      if (mint === undefined) throw refuse(`${currency} is not carried on Solana`);
      const owner = new PublicKey(validation.normalized);
      const read = (target: PublicKey) => callChainAccess("solana", "getAccount", readOptions.timeoutMs ?? timeoutMs, () => balanceAccess.getAccount(target.toBase58()));
      if (!mint) return (await read(owner))?.lamports ?? 0n;
      // The tokens a payout spends: those of the owner's associated token account (see planTransfer).
      const tokenAccount = await read(getAssociatedTokenAddressSync(new PublicKey(mint), owner, true));
      if (!tokenAccount) return 0n;
      if (tokenAccount.owner !== TOKEN_PROGRAM_ID || tokenAccount.data.length !== ACCOUNT_SIZE) {
        throw refuse(`the ${currency} associated token account of ${address} is not an SPL token account`);
      }
      return AccountLayout.decode(tokenAccount.data).amount;
    },

    async getTransaction(txid: string, sent?: SentRecord): Promise<SentTransactionState> {
      let isSignature = false;
      try {
        isSignature = bs58.decode(txid).length === 64;
      } catch {
        isSignature = false;
      }
      if (!isSignature) throw refuse("not a transaction signature");
      const status = await call("getSignatureStatus", () => access.getSignatureStatus(txid));
      if (!status) return { state: "unknown", confirmations: 0, blockHeight: null };
      if (status.commitment === "processed" && !status.isFailed) return { state: "pending", confirmations: 0, blockHeight: status.slot };
      const record = await call("getTransaction", () => access.getTransaction(txid));
      // What it cost the hot wallet (the fee payer): its lamports before less after, less the SOL it
      // delivered — so the rent of a token account it created for the recipient is counted too.
      // The fee alone where the node does not report balances, or the transfer is not known.
      const delivered = sent?.transfer ? (sent.transfer.currency === SOL_SYMBOL && !status.isFailed ? sent.transfer.amountMinor : 0n) : null;
      const feeMinor = record?.payerLamports && delivered !== null ? record.payerLamports.before - record.payerLamports.after - delivered : record?.feeLamports;
      if (status.isFailed) return { state: "failed", confirmations: 0, blockHeight: status.slot, feeMinor };
      const tip = await call("getTip", () => access.getTip());
      // Same measure as the watcher: slots since the transaction's slot, counting it.
      return { state: "confirmed", confirmations: Math.max(1, tip.slot - status.slot + 1), blockHeight: status.slot, feeMinor };
    },

    /** The SOL or token transfers the transaction's instructions made from the sender to the recipient (its ATA for a token), as deposits are read. */
    async readDelivered(txid, sent, delivery) {
      if (delivery.currency !== SOL_SYMBOL && !mints.has(delivery.currency)) throw refuse(`${delivery.currency} is not carried on solana`);
      const record = await call("getTransaction", () => access.getTransaction(txid));
      if (!record) return 0n;
      const watch = buildSolanaWatchIndex([delivery.toAddress], mints);
      return extractSolanaDeposits(record, watch)
        .filter((transfer) => transfer.currency === delivery.currency && transfer.toAddress === delivery.toAddress && transfer.fromAddress === sent.fromAddress)
        .reduce((sum, transfer) => sum + transfer.amountMinor, 0n);
    },
  };
}
