import { randomBytes } from "node:crypto";
import { Address, beginCell, Cell, comment, external, internal, SendMode, storeMessage, toNano, type Message, type MessageRelaxed, type StateInit, type Transaction } from "@ton/core";
import { validateAddress, type AddressChain } from "@/lib/chains/addresses";
import { ChainError, type BalanceReadOptions, type BroadcastOutcome, type ChainSender, type ConsumedResources, type FeeEstimate, type OutgoingTransfer, type SentTransactionState, type SignedTransaction, type SigningContext, type SigningKey } from "@/lib/chains/types";
import { callTonAccess, DEFAULT_TON_TIMEOUT_MS } from "@/lib/chains/ton/call-ton-access";
import type { TonAccess } from "@/lib/chains/ton/ton-access";
import { resolveTonJettons, TON_NETWORK, TON_SYMBOL } from "@/lib/chains/ton/ton-assets";
import { buildJettonTransferBody, normalizedExternalHash, normalizedHashOfMessage, OP_JETTON_INTERNAL_TRANSFER, OP_JETTON_TRANSFER } from "@/lib/chains/ton/ton-messages";
import { openTonHotWallet, type TonHotWallet } from "@/lib/chains/ton/open-ton-hot-wallet";

export interface TonSenderOptions {
  access: TonAccess;
  /** Symbol → jetton master overrides (a master deployed in a sandbox). */
  jettons?: Readonly<Record<string, string>>;
  /** Which instance's addresses are accepted; "main" refuses testnet-only ones. Defaults to "main". */
  chain?: AddressChain;
  timeoutMs?: number;
  /**
   * The hot wallet addresses, for `getTransaction` of a txid this process did not send (after a
   * restart): a TON message hash does not say which wallet it went to.
   */
  listHotWallets?: () => Promise<string[]>;
  /** TON attached to a jetton transfer for the jetton wallets' gas; the rest comes back as excess. Default 0.05 TON. */
  jettonTransferTonAmount?: bigint;
  /** TON forwarded with the recipient's transfer_notification. Default and minimum 1 nanoton (networks.md §6). */
  forwardTonAmount?: bigint;
  /** valid_until of a message, seconds after the chain time it was signed at. Default 60. */
  messageLifetimeSeconds?: number;
}

function refuse(message: string, cause?: unknown): ChainError {
  return new ChainError(`ton: ${message}`, { retryable: false, cause });
}

function shortOfFunds(message: string): ChainError {
  return new ChainError(`ton: ${message}`, { retryable: false, isShortOfFunds: true });
}

/** What one transfer asks of the hot wallet. */
interface TransferPlan {
  message: MessageRelaxed;
  /** Nanotons the message carries out of the hot wallet. */
  tonValue: bigint;
  /** For jetton transfers: the hot wallet's jetton wallet and the amount it must hold. */
  jetton?: { wallet: Address; amount: bigint };
}

interface WalletState {
  seqno: number;
  isDeployed: boolean;
  balance: bigint;
}

interface SignedExternal {
  message: Cell;
  body: Cell;
  init: StateInit | null;
  txid: string;
}

/** Where to look for a sent message: its wallet and until when it could apply. */
interface SentMessage {
  wallet: Address;
  validUntil: number;
}

const MAX_REMEMBERED = 10_000;

/**
 * The sending half of TON: Toncoin and jetton transfers from a wallet v4R2 hot wallet, signed
 * locally. A wallet takes messages strictly in seqno order, so a message is signed only once the
 * wallet's previous one (as the caller's database records it) has applied or expired. The txid
 * is the normalised hash of the external message.
 */
export function createTonSender(options: TonSenderOptions): ChainSender {
  const { access } = options;
  const chain = options.chain ?? "main";
  const timeoutMs = options.timeoutMs ?? DEFAULT_TON_TIMEOUT_MS;
  const jettons = resolveTonJettons(options.jettons);
  const jettonTransferTonAmount = options.jettonTransferTonAmount ?? toNano("0.05");
  const forwardTonAmount = options.forwardTonAmount ?? 1n;
  if (forwardTonAmount < 1n) throw new Error("forward_ton_amount must be at least 1 nanoton, or recipients are never notified");
  const lifetime = options.messageLifetimeSeconds ?? 60;
  const call = <T>(what: string, run: () => Promise<T>) => callTonAccess(what, timeoutMs, run);

  /** Where this process's messages went, so following one need not search every hot wallet. */
  const sent = new Map<string, SentMessage>();

  function checkTransfer(transfer: OutgoingTransfer): Address {
    if (transfer.amountMinor <= 0n) throw refuse("the amount must be positive");
    if (transfer.currency !== TON_SYMBOL && !jettons.has(transfer.currency)) throw refuse(`${transfer.currency} is not paid on TON`);
    const validation = validateAddress(TON_NETWORK, transfer.toAddress, { chain });
    if (!validation.ok) throw refuse(`the recipient is not a TON address for this network (${validation.reason})`);
    return Address.parse(validation.normalized);
  }

  async function jettonWalletOf(master: Address, owner: Address): Promise<Address> {
    return call("get_wallet_address", () => readJettonWalletAddress(access, master, owner));
  }

  async function planTransfer(wallet: TonHotWallet, transfer: OutgoingTransfer, recipient: Address): Promise<TransferPlan> {
    const master = jettons.get(transfer.currency);
    if (!master) {
      // Bounce only to an active account whose address asks for it: a bounceable message to a
      // wallet that is not deployed yet would come straight back (networks.md §3).
      const isBounceable = Address.isFriendly(transfer.toAddress) ? Address.parseFriendly(transfer.toAddress).isBounceable : true;
      const recipientState = await call("getAccountState", () => access.getAccountState(recipient));
      const bounce = isBounceable && recipientState.status === "active";
      const body = transfer.memo === undefined ? undefined : comment(transfer.memo);
      return { message: internal({ to: recipient, value: transfer.amountMinor, bounce, body }), tonValue: transfer.amountMinor };
    }
    const hotJettonWallet = await jettonWalletOf(master, wallet.contract.address);
    const body = buildJettonTransferBody({
      queryId: randomBytes(8).readBigUInt64BE(),
      amount: transfer.amountMinor,
      destination: recipient,
      responseDestination: wallet.contract.address,
      forwardTonAmount,
      memo: transfer.memo,
    });
    const tonValue = jettonTransferTonAmount + forwardTonAmount;
    return { message: internal({ to: hotJettonWallet, value: tonValue, bounce: true, body }), tonValue, jetton: { wallet: hotJettonWallet, amount: transfer.amountMinor } };
  }

  async function readWalletState(address: Address): Promise<WalletState> {
    const state = await call("getAccountState", () => access.getAccountState(address));
    if (state.status === "frozen") throw refuse("the hot wallet is frozen");
    if (state.status !== "active") return { seqno: 0, isDeployed: false, balance: state.balance };
    const stack = await call("seqno", () => access.runGetMethod(address, "seqno", []));
    return { seqno: stack.readNumber(), isDeployed: true, balance: state.balance };
  }

  function signExternal(wallet: TonHotWallet, state: WalletState, message: MessageRelaxed, validUntil: number): SignedExternal {
    const body = wallet.contract.createTransfer({
      seqno: state.seqno,
      secretKey: wallet.keyPair.secretKey,
      messages: [message],
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      timeout: validUntil,
    });
    // The first message of a wallet deploys it.
    const init = state.isDeployed ? null : wallet.contract.init;
    const externalMessage = external({ to: wallet.contract.address, init, body });
    return { message: beginCell().store(storeMessage(externalMessage)).endCell(), body, init, txid: normalizedExternalHash(wallet.contract.address, body) };
  }

  function remember(txid: string, message: SentMessage): void {
    sent.set(txid, message);
    if (sent.size > MAX_REMEMBERED) sent.delete(sent.keys().next().value!);
  }

  async function findWalletTransaction(wallet: Address, txid: string, notBefore: number | null): Promise<Transaction | null> {
    return findTransaction(wallet, (transaction) => normalizedHashOfMessage(transaction.inMessage) === txid, notBefore);
  }

  /** The newest transaction of `account` that `matches`, looking back to `notBefore` (or over the last 500). */
  async function findTransaction(account: Address, matches: (transaction: Transaction) => boolean, notBefore: number | null): Promise<Transaction | null> {
    let before: { lt: bigint; hash: Buffer } | undefined;
    // With a known send time, page back to it; without one (after a restart), read the last 500.
    const maxPages = notBefore === null ? 10 : Number.POSITIVE_INFINITY;
    for (let page = 0; page < maxPages; page++) {
      const transactions = await call("getTransactions", () => access.getTransactions(account, { limit: 50, before }));
      for (const transaction of transactions) {
        if (matches(transaction)) return transaction;
        if (notBefore !== null && transaction.now < notBefore) return null;
      }
      if (transactions.length < 50) return null;
      const oldest = transactions[transactions.length - 1];
      before = { lt: oldest.lt, hash: oldest.hash() };
    }
    return null;
  }

  /**
   * Where a jetton transfer the hot wallet sent got to: the hot wallet's jetton wallet must take
   * it (it refuses, for one, a transfer above its balance) and the recipient's jetton wallet must
   * take the internal transfer that follows; either refusal bounces the jettons back, so the
   * payout did not happen although the hot wallet's own transaction succeeded. Null for a
   * message that is no jetton transfer (Toncoin: delivered by the wallet's own transaction).
   */
  async function followJettonTransfer(sent: Transaction): Promise<"delivered" | "bounced" | "pending" | null> {
    const transfer = sent.outMessages.get(0);
    if (!transfer || opOf(transfer.body) !== OP_JETTON_TRANSFER) return null;
    const atHotJettonWallet = await deliveryOf(transfer, sent.now);
    if (!atHotJettonWallet) return "pending";
    if (!hasRun(atHotJettonWallet)) return "bounced";
    const internalTransfer = [...atHotJettonWallet.outMessages.values()].find((message) => opOf(message.body) === OP_JETTON_INTERNAL_TRANSFER);
    if (!internalTransfer) return "bounced";
    const atRecipientJettonWallet = await deliveryOf(internalTransfer, sent.now);
    if (!atRecipientJettonWallet) return "pending";
    return hasRun(atRecipientJettonWallet) ? "delivered" : "bounced";
  }

  /** The transaction in which an internal message was received, once it is. */
  async function deliveryOf(message: Message, notBefore: number): Promise<Transaction | null> {
    if (message.info.type !== "internal") return null;
    const hash = messageHash(message);
    return findTransaction(message.info.dest, (transaction) => transaction.inMessage != null && messageHash(transaction.inMessage) === hash, notBefore);
  }

  return {
    network: TON_NETWORK,

    async estimateFee(from: SigningKey, transfer: OutgoingTransfer): Promise<FeeEstimate> {
      const recipient = checkTransfer(transfer);
      const wallet = openTonHotWallet(from);
      const plan = await planTransfer(wallet, transfer, recipient);
      const state = await readWalletState(wallet.contract.address);
      const chainTime = await call("getChainTime", () => access.getChainTime());
      const signed = signExternal(wallet, state, plan.message, chainTime + lifetime);
      const walletFee = await call("estimateExternalFee", () => access.estimateExternalFee(wallet.contract.address, { body: signed.body, init: signed.init }));
      // For jettons, all attached TON is counted: an upper bound, since the excess comes back.
      return { feeMinor: walletFee + (plan.jetton ? plan.tonValue : 0n), feeCurrency: TON_SYMBOL };
    },

    async sign(from: SigningKey, transfer: OutgoingTransfer, context: SigningContext): Promise<SignedTransaction> {
      // Refuse bad input before any key handling or API call.
      const recipient = checkTransfer(transfer);
      const wallet = openTonHotWallet(from);
      const plan = await planTransfer(wallet, transfer, recipient);
      const [state, chainTime] = await Promise.all([readWalletState(wallet.contract.address), call("getChainTime", () => access.getChainTime())]);
      // A wallet takes messages strictly in seqno order: while its last message can still apply
      // (seqno not passed, valid_until not reached), the next one waits.
      const previous = context.inFlight.reduce<ConsumedResources | null>(
        (latest, transaction) => ((transaction.consumes.seqno ?? -1) > (latest?.seqno ?? -1) ? transaction.consumes : latest),
        null,
      );
      if (previous && state.seqno <= previous.seqno! && chainTime * 1000 <= (previous.validUntilMs ?? 0)) {
        throw new ChainError("ton: the previous transfer of this wallet is still pending", { retryable: true });
      }
      if (state.balance < plan.tonValue) throw shortOfFunds(`insufficient TON in the hot wallet: ${state.balance}, ${plan.tonValue} needed`);
      if (plan.jetton) {
        const jettonWallet = plan.jetton.wallet;
        const balance = await call("get_wallet_data", () => readJettonBalance(access, jettonWallet));
        if (balance < plan.jetton.amount) throw shortOfFunds(`insufficient ${transfer.currency} in the hot wallet: ${balance}, ${plan.jetton.amount} needed`);
      }
      const validUntil = chainTime + lifetime;
      const signed = signExternal(wallet, state, plan.message, validUntil);
      const walletFee = await call("estimateExternalFee", () => access.estimateExternalFee(wallet.contract.address, { body: signed.body, init: signed.init })).catch(
        () => 0n,
      );
      remember(signed.txid, { wallet: wallet.contract.address, validUntil });
      return {
        txid: signed.txid,
        raw: signed.message.toBoc().toString("base64"),
        consumes: { seqno: state.seqno, validUntilMs: validUntil * 1000 },
        feeMinor: walletFee + (plan.jetton ? plan.tonValue : 0n),
      };
    },

    async broadcast(signed: Pick<SignedTransaction, "txid" | "raw">): Promise<BroadcastOutcome> {
      try {
        await call("sendMessage", () => access.sendMessage(Cell.fromBase64(signed.raw)));
        return { kind: "accepted" };
      } catch (error) {
        if (error instanceof ChainError && !error.retryable) return { kind: "rejected", reason: error.message, retryable: false };
        // The same message sent again is harmless: the wallet applies a seqno once.
        return { kind: "uncertain", reason: error instanceof Error ? error.message : "no answer" };
      }
    },

    async canStillLand(signed, from) {
      const { seqno, validUntilMs } = signed.consumes;
      if (seqno === undefined || validUntilMs === undefined) throw refuse("a TON message records its seqno and valid_until");
      const [state, chainTime] = await Promise.all([readWalletState(Address.parse(from.address)), call("getChainTime", () => access.getChainTime())]);
      // Applied messages raise the seqno: once past ours, ours either applied (and was found) or never will.
      return state.seqno <= seqno && chainTime * 1000 <= validUntilMs;
    },

    async getBalance(address: string, currency: string, readOptions: BalanceReadOptions = {}): Promise<bigint> {
      const validation = validateAddress(TON_NETWORK, address, { chain });
      if (!validation.ok) throw refuse(`${address} is not a TON address for this network (${validation.reason})`);
      const master = currency === TON_SYMBOL ? null : jettons.get(currency);
      if (master === undefined) throw refuse(`${currency} is not carried on TON`);
      const owner = Address.parse(validation.normalized);
      // One deadline for the whole read: a jetton takes three calls.
      return callTonAccess(`balance of ${currency}`, readOptions.timeoutMs ?? timeoutMs, async () => {
        if (!master) return (await access.getAccountState(owner)).balance;
        // The jettons a payout spends: those of the owner's jetton wallet (see planTransfer).
        return readJettonBalance(access, await readJettonWalletAddress(access, master, owner));
      });
    },

    async getTransaction(txid: string): Promise<SentTransactionState> {
      if (!/^[0-9a-f]{64}$/.test(txid)) throw refuse("not a message hash");
      const known = sent.get(txid);
      const wallets = known ? [known.wallet] : ((await options.listHotWallets?.()) ?? []).map((address) => Address.parse(address));
      for (const wallet of wallets) {
        const notBefore = known ? known.validUntil - lifetime : null;
        const transaction = await findWalletTransaction(wallet, txid, notBefore);
        if (!transaction) continue;
        const description = transaction.description;
        // IGNORE_ERRORS lets a wallet skip a message it cannot pay: success means a message left.
        const hasSent =
          description.type === "generic" &&
          description.computePhase.type === "vm" &&
          description.computePhase.success &&
          description.actionPhase?.success === true &&
          transaction.outMessagesCount > 0;
        // What the wallet's transaction cost, from the chain (also when it sent nothing): its fees
        // (which hold the action phase's share of forwarding) plus the rest of the forwarding fees,
        // which the sent messages carry and the wallet pays on top (PAY_GAS_SEPARATELY).
        const action = description.type === "generic" ? description.actionPhase : undefined;
        const carriedForwardFees = (action?.totalFwdFees ?? 0n) - (action?.totalActionFees ?? 0n);
        const feeMinor = transaction.totalFees.coins + carriedForwardFees;
        if (!hasSent) return { state: "failed", confirmations: 0, blockHeight: transaction.now, feeMinor };
        const jetton = await followJettonTransfer(transaction);
        if (jetton === "pending") return { state: "pending", confirmations: 0, blockHeight: transaction.now };
        // The jettons came back: nothing reached the recipient, and the fee was paid.
        if (jetton === "bounced") return { state: "failed", confirmations: 0, blockHeight: transaction.now, feeMinor };
        const chainTime = await call("getChainTime", () => access.getChainTime());
        // Same measure as the watcher's heights: seconds of block time, counting the block itself.
        return { state: "confirmed", confirmations: Math.max(1, chainTime - transaction.now + 1), blockHeight: transaction.now, feeMinor };
      }
      if (!known) return { state: "unknown", confirmations: 0, blockHeight: null };
      const chainTime = await call("getChainTime", () => access.getChainTime());
      // Past valid_until a message that has not applied never will.
      return chainTime > known.validUntil ? { state: "failed", confirmations: 0, blockHeight: null } : { state: "pending", confirmations: 0, blockHeight: null };
    },
  };
}

/** The jetton wallet a jetton master derives for `owner` (its own get-method). */
async function readJettonWalletAddress(access: TonAccess, master: Address, owner: Address): Promise<Address> {
  return (await access.runGetMethod(master, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(owner).endCell() }])).readAddress();
}

/** What a jetton wallet holds, in the jetton's minor units: 0 until its first incoming transfer deploys it. */
async function readJettonBalance(access: TonAccess, jettonWallet: Address): Promise<bigint> {
  if ((await access.getAccountState(jettonWallet)).status !== "active") return 0n;
  return (await access.runGetMethod(jettonWallet, "get_wallet_data", [])).readBigNumber();
}

/** The op code a message body starts with, or null for a body too short to have one. */
function opOf(body: Cell): number | null {
  const slice = body.beginParse();
  return slice.remainingBits >= 32 ? slice.loadUint(32) : null;
}

/** An internal message's identity: the hash of its cell, the same in its sender's and its receiver's transaction. */
function messageHash(message: Message): string {
  return beginCell().store(storeMessage(message)).endCell().hash().toString("hex");
}

/** Whether a transaction ran to the end: computed and its actions carried out (not aborted, so nothing bounced). */
function hasRun(transaction: Transaction): boolean {
  const description = transaction.description;
  return description.type === "generic" && !description.aborted && description.computePhase.type === "vm" && description.computePhase.success && description.actionPhase?.success !== false;
}
