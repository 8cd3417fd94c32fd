import { createKeyedMutex } from "../keyed-mutex";
import { randomBytes } from "node:crypto";
import { Address, beginCell, comment, external, internal, SendMode, storeMessage, toNano, type Cell, type MessageRelaxed, type StateInit, type Transaction } from "@ton/core";
import { validateAddress, type AddressChain } from "@/lib/chains/addresses";
import { ChainError, type ChainSender, type FeeEstimate, type OutgoingTransfer, type SentTransactionState, type SigningKey } from "@/lib/chains/types";
import { callTonAccess, DEFAULT_TON_TIMEOUT_MS } from "@/lib/chains/ton/call-ton-access";
import type { TonAccess } from "@/lib/chains/ton/ton-access";
import { resolveTonJettons, TON_NETWORK, TON_SYMBOL } from "@/lib/chains/ton/ton-assets";
import { buildJettonTransferBody, normalizedExternalHash, normalizedHashOfMessage } from "@/lib/chains/ton/ton-messages";
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
  /** Wait between seqno reads while a previous message of the wallet is in flight. Default 1000 ms. */
  pollIntervalMs?: number;
  sleep?: (milliseconds: number) => Promise<void>;
}

function refuse(message: string, cause?: unknown): ChainError {
  return new ChainError(`ton: ${message}`, { retryable: false, cause });
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
 * locally. A wallet takes messages strictly in seqno order, so sends from one wallet run one at a
 * time, and a send waits until the previous message of that wallet has applied (or expired)
 * before it reads the next seqno. The txid is the normalised hash of the external message.
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
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const sleep = options.sleep ?? ((milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds)));
  const call = <T>(what: string, run: () => Promise<T>) => callTonAccess(what, timeoutMs, run);

  // Sends from one key run one at a time, so balance checks and sequence numbers see the
  // previous send. Different keys do not wait for each other.
  const runExclusive = createKeyedMutex();
  /** Per wallet: the seqno of the last message broadcast and its valid_until. */
  const inFlight = new Map<string, { seqno: number; validUntil: number }>();
  const sent = new Map<string, SentMessage>();

  function checkTransfer(transfer: OutgoingTransfer): Address {
    if (transfer.amountMinor <= 0n) throw refuse("the amount must be positive");
    if (transfer.currency !== TON_SYMBOL && !jettons.has(transfer.currency)) throw refuse(`${transfer.currency} is not paid on TON`);
    const validation = validateAddress(TON_NETWORK, transfer.toAddress, { chain });
    if (!validation.ok) throw refuse(`the recipient is not a TON address for this network (${validation.reason})`);
    return Address.parse(validation.normalized);
  }

  async function jettonWalletOf(master: Address, owner: Address): Promise<Address> {
    const stack = await call("get_wallet_address", () =>
      access.runGetMethod(master, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(owner).endCell() }]),
    );
    return stack.readAddress();
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

  async function readWalletState(wallet: TonHotWallet): Promise<WalletState> {
    const state = await call("getAccountState", () => access.getAccountState(wallet.contract.address));
    if (state.status === "frozen") throw refuse("the hot wallet is frozen");
    if (state.status !== "active") return { seqno: 0, isDeployed: false, balance: state.balance };
    const stack = await call("seqno", () => access.runGetMethod(wallet.contract.address, "seqno", []));
    return { seqno: stack.readNumber(), isDeployed: true, balance: state.balance };
  }

  /**
   * The wallet's state once its previous message (if any) has applied or expired. Sending
   * seqno + 1 before seqno N applies is refused by the wallet, and reusing N would collide.
   */
  async function readSettledWalletState(wallet: TonHotWallet): Promise<WalletState> {
    const key = wallet.contract.address.toRawString();
    let state = await readWalletState(wallet);
    const previous = inFlight.get(key);
    if (!previous) return state;
    const maxPolls = Math.ceil(((lifetime + 30) * 1000) / pollIntervalMs);
    for (let poll = 0; state.seqno <= previous.seqno; poll++) {
      // Past valid_until the old message can never apply: its seqno is free again.
      if ((await call("getChainTime", () => access.getChainTime())) > previous.validUntil) break;
      if (poll >= maxPolls) throw new ChainError("ton: the previous transfer of this wallet is still pending", { retryable: true });
      await sleep(pollIntervalMs);
      state = await readWalletState(wallet);
    }
    inFlight.delete(key);
    return state;
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
    let before: { lt: bigint; hash: Buffer } | undefined;
    // With a known send time, page back to it; without one (after a restart), read the last 500.
    const maxPages = notBefore === null ? 10 : Number.POSITIVE_INFINITY;
    for (let page = 0; page < maxPages; page++) {
      const transactions = await call("getTransactions", () => access.getTransactions(wallet, { limit: 50, before }));
      for (const transaction of transactions) {
        if (normalizedHashOfMessage(transaction.inMessage) === txid) return transaction;
        if (notBefore !== null && transaction.now < notBefore) return null;
      }
      if (transactions.length < 50) return null;
      const oldest = transactions[transactions.length - 1];
      before = { lt: oldest.lt, hash: oldest.hash() };
    }
    return null;
  }

  return {
    network: TON_NETWORK,

    async estimateFee(from: SigningKey, transfer: OutgoingTransfer): Promise<FeeEstimate> {
      const recipient = checkTransfer(transfer);
      const wallet = openTonHotWallet(from);
      const plan = await planTransfer(wallet, transfer, recipient);
      const state = await readWalletState(wallet);
      const chainTime = await call("getChainTime", () => access.getChainTime());
      const signed = signExternal(wallet, state, plan.message, chainTime + lifetime);
      const walletFee = await call("estimateExternalFee", () => access.estimateExternalFee(wallet.contract.address, { body: signed.body, init: signed.init }));
      // For jettons, all attached TON is counted: an upper bound, since the excess comes back.
      return { feeMinor: walletFee + (plan.jetton ? plan.tonValue : 0n), feeCurrency: TON_SYMBOL };
    },

    async send(from: SigningKey, transfer: OutgoingTransfer): Promise<{ txid: string }> {
      // Refuse bad input before any key handling or API call.
      const recipient = checkTransfer(transfer);
      const wallet = openTonHotWallet(from);
      const key = wallet.contract.address.toRawString();
      return runExclusive(key, async () => {
        const plan = await planTransfer(wallet, transfer, recipient);
        const state = await readSettledWalletState(wallet);
        if (state.balance < plan.tonValue) throw refuse(`insufficient TON in the hot wallet: ${state.balance}, ${plan.tonValue} needed`);
        if (plan.jetton) {
          const jettonWallet = plan.jetton.wallet;
          const jettonState = await call("getAccountState", () => access.getAccountState(jettonWallet));
          const balance =
            jettonState.status === "active" ? (await call("get_wallet_data", () => access.runGetMethod(jettonWallet, "get_wallet_data", []))).readBigNumber() : 0n;
          if (balance < plan.jetton.amount) throw refuse(`insufficient ${transfer.currency} in the hot wallet: ${balance}, ${plan.jetton.amount} needed`);
        }

        const chainTime = await call("getChainTime", () => access.getChainTime());
        const validUntil = chainTime + lifetime;
        const signed = signExternal(wallet, state, plan.message, validUntil);
        // Recorded before the broadcast: a timeout may hide a message that still applies.
        inFlight.set(key, { seqno: state.seqno, validUntil });
        remember(signed.txid, { wallet: wallet.contract.address, validUntil });
        try {
          await call("sendMessage", () => access.sendMessage(signed.message));
        } catch (error) {
          if (error instanceof ChainError && !error.retryable) {
            inFlight.delete(key);
            throw error;
          }
          throw new ChainError(`ton: broadcast of ${signed.txid} failed; it can still apply until ${validUntil}`, { retryable: true, cause: error });
        }
        return { txid: signed.txid };
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
        if (!hasSent) return { state: "failed", confirmations: 0, blockHeight: transaction.now };
        const chainTime = await call("getChainTime", () => access.getChainTime());
        // Same measure as the watcher's heights: seconds of block time, counting the block itself.
        return { state: "confirmed", confirmations: Math.max(1, chainTime - transaction.now + 1), blockHeight: transaction.now };
      }
      if (!known) return { state: "unknown", confirmations: 0, blockHeight: null };
      const chainTime = await call("getChainTime", () => access.getChainTime());
      // Past valid_until a message that has not applied never will.
      return chainTime > known.validUntil ? { state: "failed", confirmations: 0, blockHeight: null } : { state: "pending", confirmations: 0, blockHeight: null };
    },
  };
}
