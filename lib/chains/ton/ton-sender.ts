import { randomBytes } from "node:crypto";
import { Address, beginCell, Cell, comment, external, internal, SendMode, storeMessage, toNano, type Message, type MessageRelaxed, type StateInit, type Transaction } from "@ton/core";
import { validateAddress, type AddressChain } from "@/lib/chains/addresses";
import {
  ChainError,
  type BalanceReadOptions,
  type BroadcastOutcome,
  type ChainSender,
  type ConsumedResources,
  type FeeEstimate,
  type OutgoingTransfer,
  type SentRecord,
  type SentTransactionState,
  type SignedTransaction,
  type SigningContext,
  type SigningKey,
} from "@/lib/chains/types";
import { callChainAccess, DEFAULT_ACCESS_TIMEOUT_MS } from "@/lib/chains/call-access";
import type { TonAccess } from "@/lib/chains/ton/ton-access";
import { resolveTonJettons, TON_NETWORK, TON_SYMBOL } from "@/lib/chains/ton/ton-assets";
import {
  buildJettonTransferBody,
  normalizedExternalHash,
  normalizedHashOfMessage,
  OP_JETTON_INTERNAL_TRANSFER,
  OP_JETTON_TRANSFER,
  parseJettonTransfer,
  readWalletV4Seqno,
  seqnoOfWalletV4External,
} from "@/lib/chains/ton/ton-messages";
import { openTonHotWallet, type TonHotWallet } from "@/lib/chains/ton/open-ton-hot-wallet";

export interface TonSenderOptions {
  access: TonAccess;
  /** Symbol → jetton master overrides (a master deployed in a sandbox). */
  jettons?: Readonly<Record<string, string>>;
  /** Which instance's addresses are accepted; "main" refuses testnet-only ones. Defaults to "main". */
  chain?: AddressChain;
  timeoutMs?: number;
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
  /** The time of the block the state was read at (seconds): the chain time it is true for. */
  atTime: number;
}

interface SignedExternal {
  message: Cell;
  body: Cell;
  init: StateInit | null;
  txid: string;
}

/** Where what a wallet transaction sent got to: `returned`, nanotons back in the wallet net of the fees of taking them in. */
type Delivery =
  | { kind: "pending" }
  | { kind: "delivered"; returned: bigint; toncoinDelivered: bigint }
  /** `byRecipient`: the recipient's side refused it; else the hot wallet's own jetton wallet did (it lacked the jettons). */
  | { kind: "bounced"; returned: bigint; byRecipient: boolean };

/** Where a sent message can be: its wallet's transactions between its signing and its valid_until. */
interface MessageWindow {
  wallet: Address;
  /** Seconds: the chain time at signing; no earlier transaction can hold it. */
  notBefore: number;
}

/**
 * The sending half of TON: Toncoin and jetton transfers from a wallet v4R2 hot wallet, signed
 * locally. A wallet takes messages strictly in seqno order, so a message is signed only once the
 * wallet's previous one (as the caller's database records it) has applied or expired. The txid
 * is the normalised hash of the external message. Nothing about sent messages is kept in memory:
 * a message is followed from the caller's record of it (wallet, seqno, signing time,
 * valid_until), so any process, after any restart, reaches the same answer.
 */
export function createTonSender(options: TonSenderOptions): ChainSender {
  const { access } = options;
  const chain = options.chain ?? "main";
  const timeoutMs = options.timeoutMs ?? DEFAULT_ACCESS_TIMEOUT_MS;
  const jettons = resolveTonJettons(options.jettons);
  const jettonTransferTonAmount = options.jettonTransferTonAmount ?? toNano("0.05");
  const forwardTonAmount = options.forwardTonAmount ?? 1n;
  if (forwardTonAmount < 1n) throw new Error("forward_ton_amount must be at least 1 nanoton, or recipients are never notified");
  const lifetime = options.messageLifetimeSeconds ?? 60;
  const call = <T>(what: string, run: () => Promise<T>) => callChainAccess("ton", what, timeoutMs, run);

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

  /** The wallet's seqno and balance with the block time they are true at, from one answer of one node. */
  async function readWalletState(address: Address): Promise<WalletState> {
    const state = await call("getAccountState", () => access.getAccountState(address));
    if (state.status === "frozen") throw refuse("the hot wallet is frozen");
    if (state.status !== "active") return { seqno: 0, isDeployed: false, balance: state.balance, atTime: state.atTime };
    if (!state.data) throw new ChainError("ton: the hot wallet's state came without its data", { retryable: true });
    return { seqno: readWalletV4Seqno(state.data), isDeployed: true, balance: state.balance, atTime: state.atTime };
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

  /** Where the database's record of a message says to look for it. */
  function windowOf(sent: SentRecord | undefined): MessageWindow {
    const validUntilMs = sent?.consumes.validUntilMs;
    if (!sent || validUntilMs === undefined) throw refuse("a TON message is followed from its record: the sending wallet and its validity window");
    // Records made before the signing time was kept: the default lifetime before valid_until.
    const notBefore = sent.consumes.signedAtMs !== undefined ? Math.floor(sent.consumes.signedAtMs / 1000) : Math.floor(validUntilMs / 1000) - lifetime;
    return { wallet: Address.parse(sent.fromAddress), notBefore };
  }

  async function findWalletTransaction(wallet: Address, txid: string, notBefore: number): Promise<Transaction | null> {
    return findTransaction(wallet, (transaction) => normalizedHashOfMessage(transaction.inMessage) === txid, notBefore);
  }

  /**
   * The newest transaction of `account` that `matches`, paging back through its whole history down
   * to `notBefore` (seconds): however many other transactions (dust, deposits) came after it.
   */
  async function findTransaction(account: Address, matches: (transaction: Transaction) => boolean, notBefore: number): Promise<Transaction | null> {
    let before: { lt: bigint; hash: Buffer } | undefined;
    for (;;) {
      const transactions = await call("getTransactions", () => access.getTransactions(account, { limit: 50, before }));
      for (const transaction of transactions) {
        if (matches(transaction)) return transaction;
        if (transaction.now < notBefore) return null;
      }
      if (transactions.length < 50) return null;
      const oldest = transactions[transactions.length - 1];
      before = { lt: oldest.lt, hash: oldest.hash() };
    }
  }

  /**
   * Where what the hot wallet's transaction `sent` got to, and what came back to the wallet.
   * Toncoin: a bounceable message to a contract that fails is bounced back (less the fees) and
   * reaches nobody. Jettons: the hot wallet's jetton wallet must take the transfer (it refuses,
   * for one, a transfer above its balance) and the recipient's jetton wallet the internal transfer
   * that follows; either refusal bounces it, although the hot wallet's own transaction succeeded.
   * "pending" until every message of the trace that comes back to the wallet (a bounce, the
   * jetton wallets' excess) has been received there, so the cost is the chain's final figure.
   */
  async function followDelivery(sent: Transaction, wallet: Address): Promise<Delivery> {
    const message = sent.outMessages.get(0);
    if (!message || message.info.type !== "internal") return { kind: "pending" };
    const trace: Transaction[] = [];
    let outcome: "delivered" | "bounced";
    let byRecipient = true;
    let toncoinDelivered = 0n;
    if (opOf(message.body) === OP_JETTON_TRANSFER) {
      const atHotJettonWallet = await deliveryOf(message, sent.now);
      if (!atHotJettonWallet) return { kind: "pending" };
      trace.push(atHotJettonWallet);
      const internalTransfer = [...atHotJettonWallet.outMessages.values()].find((out) => opOf(out.body) === OP_JETTON_INTERNAL_TRANSFER);
      if (!hasRun(atHotJettonWallet) || !internalTransfer) {
        outcome = "bounced";
        byRecipient = false;
      } else {
        const atRecipientJettonWallet = await deliveryOf(internalTransfer, sent.now);
        if (!atRecipientJettonWallet) return { kind: "pending" };
        trace.push(atRecipientJettonWallet);
        outcome = hasRun(atRecipientJettonWallet) ? "delivered" : "bounced";
      }
    } else if (!message.info.bounce) {
      // Not bounceable: the recipient is credited whatever its code does.
      outcome = "delivered";
      toncoinDelivered = message.info.value.coins;
    } else {
      const atRecipient = await deliveryOf(message, sent.now);
      if (!atRecipient) return { kind: "pending" };
      trace.push(atRecipient);
      outcome = hasRun(atRecipient) ? "delivered" : "bounced";
      if (outcome === "delivered") toncoinDelivered = message.info.value.coins;
    }
    let returned = 0n;
    for (const transaction of trace) {
      for (const back of transaction.outMessages.values()) {
        if (back.info.type !== "internal" || !back.info.dest.equals(wallet)) continue;
        const received = await deliveryOf(back, sent.now);
        if (!received) return { kind: "pending" };
        // What came back, less what the wallet paid to take it in.
        returned += back.info.value.coins - received.totalFees.coins;
      }
    }
    return outcome === "delivered" ? { kind: outcome, returned, toncoinDelivered } : { kind: outcome, returned, byRecipient };
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
      const signed = signExternal(wallet, state, plan.message, state.atTime + lifetime);
      const walletFee = await call("estimateExternalFee", () => access.estimateExternalFee(wallet.contract.address, { body: signed.body, init: signed.init }));
      // For jettons, all attached TON is counted: an upper bound, since the excess comes back.
      return { feeMinor: walletFee + (plan.jetton ? plan.tonValue : 0n), feeCurrency: TON_SYMBOL };
    },

    async sign(from: SigningKey, transfer: OutgoingTransfer, context: SigningContext): Promise<SignedTransaction> {
      // Refuse bad input before any key handling or API call.
      const recipient = checkTransfer(transfer);
      const wallet = openTonHotWallet(from);
      const plan = await planTransfer(wallet, transfer, recipient);
      const state = await readWalletState(wallet.contract.address);
      // A wallet takes messages strictly in seqno order: while its last message can still apply
      // (seqno not passed, valid_until not reached), the next one waits.
      const previous = context.inFlight.reduce<ConsumedResources | null>(
        (latest, transaction) => ((transaction.consumes.seqno ?? -1) > (latest?.seqno ?? -1) ? transaction.consumes : latest),
        null,
      );
      if (previous && state.seqno <= previous.seqno! && state.atTime * 1000 <= (previous.validUntilMs ?? 0)) {
        throw new ChainError("ton: the previous transfer of this wallet is still pending", { retryable: true });
      }
      if (state.balance < plan.tonValue) throw shortOfFunds(`insufficient TON in the hot wallet: ${state.balance}, ${plan.tonValue} needed`);
      if (plan.jetton) {
        const jettonWallet = plan.jetton.wallet;
        const balance = await call("get_wallet_data", () => readJettonBalance(access, jettonWallet));
        if (balance < plan.jetton.amount) throw shortOfFunds(`insufficient ${transfer.currency} in the hot wallet: ${balance}, ${plan.jetton.amount} needed`);
      }
      const validUntil = state.atTime + lifetime;
      const signed = signExternal(wallet, state, plan.message, validUntil);
      const walletFee = await call("estimateExternalFee", () => access.estimateExternalFee(wallet.contract.address, { body: signed.body, init: signed.init })).catch(
        () => 0n,
      );
      return {
        txid: signed.txid,
        raw: signed.message.toBoc().toString("base64"),
        consumes: { seqno: state.seqno, validUntilMs: validUntil * 1000, signedAtMs: state.atTime * 1000 },
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
      const window = windowOf({ fromAddress: from.address, consumes: signed.consumes });
      const state = await readWalletState(window.wallet);
      // Not applied as of that block: it still can, unless that block is already past valid_until
      // (one answer of one node gives both, so a lagging node cannot make a live message look dead).
      if (state.seqno <= seqno) return state.atTime * 1000 <= validUntilMs;
      // Its seqno is used: by this message or by another, as the transaction that used it says.
      const consumer = await findTransaction(window.wallet, (transaction) => seqnoOfWalletV4External(transaction.inMessage) === seqno, window.notBefore);
      // A history behind the state proves nothing yet: ask again later.
      if (!consumer) return true;
      return normalizedHashOfMessage(consumer.inMessage) === signed.txid;
    },

    async getBalance(address: string, currency: string, readOptions: BalanceReadOptions = {}): Promise<bigint> {
      const validation = validateAddress(TON_NETWORK, address, { chain });
      if (!validation.ok) throw refuse(`${address} is not a TON address for this network (${validation.reason})`);
      const master = currency === TON_SYMBOL ? null : jettons.get(currency);
      if (master === undefined) throw refuse(`${currency} is not carried on TON`);
      const owner = Address.parse(validation.normalized);
      // One deadline for the whole read: a jetton takes three calls.
      return callChainAccess("ton", `balance of ${currency}`, readOptions.timeoutMs ?? timeoutMs, async () => {
        if (!master) return (await access.getAccountState(owner)).balance;
        // The jettons a payout spends: those of the owner's jetton wallet (see planTransfer).
        return readJettonBalance(access, await readJettonWalletAddress(access, master, owner));
      });
    },

    /**
     * What the wallet's message delivered to `toAddress`: Toncoin its value, once it was not
     * bounced; a jetton the amount its transfer to the hot wallet's jetton wallet names for that
     * owner, once the recipient's jetton wallet took it.
     */
    async readDelivered(txid, sent, delivery) {
      const master = delivery.currency === TON_SYMBOL ? null : jettons.get(delivery.currency);
      if (master === undefined) throw refuse(`${delivery.currency} is not carried on TON`);
      const window = windowOf(sent);
      const transaction = await findWalletTransaction(window.wallet, txid, window.notBefore);
      const message = transaction?.outMessages.get(0);
      if (!transaction || !message || message.info.type !== "internal") return 0n;
      const outcome = await followDelivery(transaction, window.wallet);
      if (outcome.kind !== "delivered") return 0n;
      const recipient = Address.parse(delivery.toAddress);
      if (!master) return message.info.dest.equals(recipient) ? outcome.toncoinDelivered : 0n;
      const transfer = parseJettonTransfer(message.body);
      const isToRecipient = transfer !== null && transfer.destination.equals(recipient) && message.info.dest.equals(await jettonWalletOf(master, window.wallet));
      return isToRecipient ? transfer.amount : 0n;
    },

    async getTransaction(txid: string, sent?: SentRecord): Promise<SentTransactionState> {
      if (!/^[0-9a-f]{64}$/.test(txid)) throw refuse("not a message hash");
      const window = windowOf(sent);
      const transaction = await findWalletTransaction(window.wallet, txid, window.notBefore);
      // Not applied (yet, or ever): whether it still can is canStillLand's question.
      if (!transaction) return { state: "unknown", confirmations: 0, blockHeight: null };
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
      const walletFee = transaction.totalFees.coins + carriedForwardFees;
      if (!hasSent) return { state: "failed", confirmations: 0, blockHeight: transaction.now, feeMinor: walletFee };
      const delivery = await followDelivery(transaction, window.wallet);
      if (delivery.kind === "pending") return { state: "pending", confirmations: 0, blockHeight: transaction.now };
      // Everything the hot wallet lost to this transfer beyond the Toncoin it delivered: its own
      // fees, the jetton wallets' gas and forward amounts, a bounce's fees (what came back is not lost).
      let sentValue = 0n;
      for (const out of transaction.outMessages.values()) if (out.info.type === "internal") sentValue += out.info.value.coins;
      // Bounced: nothing reached the recipient. Refused by the recipient, the same would bounce again.
      if (delivery.kind === "bounced") {
        return { state: "failed", confirmations: 0, blockHeight: transaction.now, feeMinor: walletFee + sentValue - delivery.returned, isRefusedByRecipient: delivery.byRecipient };
      }
      const feeMinor = walletFee + sentValue - delivery.returned - delivery.toncoinDelivered;
      const chainTime = await call("getChainTime", () => access.getChainTime());
      // Same measure as the watcher's heights: seconds of block time, counting the block itself.
      return { state: "confirmed", confirmations: Math.max(1, chainTime - transaction.now + 1), blockHeight: transaction.now, feeMinor };
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
