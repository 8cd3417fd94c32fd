import * as ecc from "@bitcoinerlab/secp256k1";
import { address as bitcoinAddress, payments, Psbt, type Network as BitcoinjsNetwork } from "bitcoinjs-lib";
import { z } from "zod";
import type { NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";
import { validateAddress } from "@/lib/chains/addresses/validate-address";
import { ChainError, type ChainSender, type FeeEstimate, type OutgoingTransfer, type SentTransactionState, type SigningKey } from "../types";
import { createKeyedMutex } from "../keyed-mutex";
import { estimateVsize, feeForVsize, selectCoins, type InputKind, type SpendableOutput } from "./select-coins";
import { coinAmountSchema, createChainResolver, getUtxoNetwork, hashSchema, type UtxoNetwork } from "./utxo-network";
import { createUtxoRpc, UtxoRpcError, type UtxoRpc } from "./utxo-rpc";

export interface UtxoSenderOptions {
  network: NetworkId;
  /** `http://user:password@host:port` of the node; it needs no wallet. */
  rpcUrl: string;
  /** Per-call timeout in ms. Default 30 000; `scantxoutset` gets at least SCAN_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The chain the node runs, when the caller already knows it; otherwise asked of the node. */
  chain?: AddressChain;
  /**
   * The hot wallet's script: P2WPKH where the network has segwit, P2PKH where it has not
   * (dogecoin). Setting P2PKH elsewhere is for proving the legacy path on a segwit test node.
   */
  scriptType?: InputKind;
}

/** The sending half of a UTXO network, plus the chain its node runs. */
export type UtxoSender = ChainSender & { chain(): Promise<AddressChain> };

/** `scantxoutset` reads the whole UTXO set: seconds on regtest, minutes on a busy mainnet. */
const SCAN_TIMEOUT_MS = 300_000;
/** Blocks `estimatesmartfee` aims at. */
const CONFIRMATION_TARGET = 6;
/** "No such mempool or blockchain transaction". */
const RPC_INVALID_ADDRESS_OR_KEY = -5;
/** "Transaction already in block chain" (sendrawtransaction). */
const RPC_VERIFY_ALREADY_IN_CHAIN = -27;
/**
 * Node rejection reasons after which building the transaction again may succeed: our inputs were
 * spent by someone else (another process on the same key) or the fee rate moved.
 */
const RETRYABLE_REJECTION = /conflict|missingorspent|missing-inputs|fee not met|insufficient fee|too-long-mempool-chain/i;

/** A signed transaction whose broadcast got no clear answer (timeout, dropped connection). */
interface UnsettledBroadcast {
  txid: string;
  hex: string;
  toAddress: string;
  amountMinor: bigint;
}

/** What this process knows about one hot wallet's coins beyond the node's UTXO set. */
interface WalletState {
  /**
   * Outpoints (`txid:vout`) spent by our transactions that are not confirmed yet, with the spending
   * txid. `scantxoutset` reads the confirmed UTXO set only and would offer them again.
   */
  reserved: Map<string, string>;
  unsettled: UnsettledBroadcast[];
}

// Per process, not per sender object: whoever builds a sender for a key (a job, a request) must see
// the same reservations and queue behind the same lock. Kept on globalThis so that a second copy of
// this module (another bundle in the same process) shares them too.
const globalForUtxo = globalThis as unknown as { gatewayUtxoWallets?: Map<string, WalletState>; gatewayUtxoLocks?: ReturnType<typeof createKeyedMutex> };
const wallets = (globalForUtxo.gatewayUtxoWallets ??= new Map<string, WalletState>());
const runExclusive = (globalForUtxo.gatewayUtxoLocks ??= createKeyedMutex());

function walletState(key: string): WalletState {
  let state = wallets.get(key);
  if (!state) {
    state = { reserved: new Map(), unsettled: [] };
    wallets.set(key, state);
  }
  return state;
}

function outpointKey(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

/** A send checked and decoded, ready for coin selection. */
interface PreparedSend {
  walletKey: string;
  inputKind: InputKind;
  bitcoinjs: BitcoinjsNetwork;
  fromAddress: string;
  /** The hot wallet's P2WPKH script: the script of its coins and of the change output. */
  walletScript: Uint8Array;
  toAddress: string;
  recipientScript: Uint8Array;
  amountMinor: bigint;
  signer: { publicKey: Uint8Array; sign(hash: Uint8Array): Uint8Array };
}

function refuse(message: string): never {
  throw new ChainError(message, { retryable: false });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/**
 * Checks everything that does not need the node, so a bad payout is refused before any key is
 * used: currency, amount, recipient address (format and network), and that the key is a P2WPKH key
 * of this network whose address it claims.
 */
function prepareSend(network: UtxoNetwork, chain: AddressChain, from: SigningKey, transfer: OutgoingTransfer, scriptType?: InputKind): PreparedSend {
  if (transfer.currency !== network.symbol) refuse(`${network.id} sends only ${network.symbol}, not ${transfer.currency}`);
  if (transfer.amountMinor < network.dustLimitMinor) {
    refuse(`${transfer.amountMinor} is below the ${network.id} dust limit of ${network.dustLimitMinor} minor units`);
  }
  const validation = validateAddress(network.id, transfer.toAddress, { chain });
  if (!validation.ok) {
    refuse(validation.reason === "wrong_network" ? `The recipient address is not a ${network.id} (${chain}) address` : "The recipient address is malformed");
  }
  const params = getUtxoParams(network.id, chain);
  // Dogecoin has no segwit: its wallets (deposit addresses included) are P2PKH.
  const inputKind: InputKind = scriptType ?? (params.bech32Prefix ? "p2wpkh" : "p2pkh");

  const publicKey = from.privateKey.length === 32 && ecc.isPrivate(from.privateKey) ? ecc.pointFromScalar(from.privateKey, true) : null;
  if (!publicKey || !sameBytes(publicKey, from.publicKey)) refuse("The hot wallet's private key does not match its public key");
  const payment = inputKind === "p2wpkh" ? payments.p2wpkh({ pubkey: publicKey, network: params.bitcoinjs }) : payments.p2pkh({ pubkey: publicKey, network: params.bitcoinjs });
  // bech32 is case-insensitive, base58 is not.
  const claimed = inputKind === "p2wpkh" ? from.address.toLowerCase() : from.address;
  if (!payment.address || !payment.output || payment.address !== claimed) {
    refuse(`The hot wallet's address is not the ${inputKind.toUpperCase()} address of its key on ${network.id} (${chain})`);
  }
  const privateKey = from.privateKey;
  return {
    walletKey: `${network.id}|${chain}|${payment.address}`,
    inputKind,
    bitcoinjs: params.bitcoinjs,
    fromAddress: payment.address,
    walletScript: payment.output,
    toAddress: validation.normalized,
    recipientScript: bitcoinAddress.toOutputScript(validation.normalized, params.bitcoinjs),
    amountMinor: transfer.amountMinor,
    // bitcoinjs asks for a 64-byte compact signature and encodes it; the curve library signs
    // deterministically (RFC 6979) with low S, as relay policy requires.
    signer: { publicKey, sign: (hash) => ecc.sign(hash, privateKey) },
  };
}

/**
 * Signs every input (all spend the wallet's own outputs), checks the signatures, and serialises.
 * A P2PKH input signs over its whole previous transaction (`previousTransactions`, raw hex by txid),
 * which is how the signer learns the amount it spends.
 */
function signTransaction(prepared: PreparedSend, inputs: SpendableOutput[], changeMinor: bigint, previousTransactions: ReadonlyMap<string, string>): { txid: string; hex: string } {
  const psbt = new Psbt({ network: prepared.bitcoinjs });
  for (const input of inputs) {
    if (prepared.inputKind === "p2wpkh") {
      psbt.addInput({ hash: input.txid, index: input.vout, witnessUtxo: { script: prepared.walletScript, value: input.valueMinor } });
    } else {
      psbt.addInput({ hash: input.txid, index: input.vout, nonWitnessUtxo: Buffer.from(previousTransactions.get(input.txid)!, "hex") });
    }
  }
  psbt.addOutput({ script: prepared.recipientScript, value: prepared.amountMinor });
  if (changeMinor > 0n) psbt.addOutput({ script: prepared.walletScript, value: changeMinor });
  psbt.signAllInputs(prepared.signer);
  if (!psbt.validateSignaturesOfAllInputs((publicKey, hash, signature) => ecc.verify(hash, publicKey, signature))) {
    throw new ChainError("A signature of the payout did not verify", { retryable: false });
  }
  const transaction = psbt.finalizeAllInputs().extractTransaction();
  return { txid: transaction.getId(), hex: transaction.toHex() };
}

/**
 * The sending half of a UTXO network for hot wallets with a P2WPKH key: coins from the node's UTXO
 * set (`scantxoutset`, so the node needs no wallet), fee from `estimatesmartfee`, a PSBT signed
 * here, then `sendrawtransaction`. Change returns to the hot wallet's address.
 *
 * Sends from one key run one at a time (an in-process lock), and outpoints spent by our unconfirmed
 * transactions are kept out of later selections, so concurrent payouts never spend one coin twice.
 * Unconfirmed change is not spent either (`scantxoutset` sees confirmed coins only): a wallet that
 * pays often needs several confirmed coins. Another process sending from the same key is not
 * coordinated with, but its mempool spends are skipped (`gettxout`), and a clash is a retryable refusal.
 */
export function createUtxoSender(options: UtxoSenderOptions): UtxoSender {
  const network = getUtxoNetwork(options.network);
  const rpc: UtxoRpc = createUtxoRpc({ rpcUrl: options.rpcUrl, timeoutMs: options.timeoutMs });
  const knownChain = options.chain;
  const chain = knownChain ? () => Promise.resolve(knownChain) : createChainResolver(rpc);
  const amountSchema = coinAmountSchema(network.decimals);
  const scanTimeoutMs = Math.max(options.timeoutMs ?? 0, SCAN_TIMEOUT_MS);

  /** The wallet's confirmed coins that neither we nor anyone in the mempool is spending. */
  async function listSpendable(prepared: PreparedSend, wallet: WalletState): Promise<SpendableOutput[]> {
    // The node runs one scantxoutset at a time; queue ours per node instead of failing.
    const scan = await runExclusive(`scantxoutset|${rpc.endpoint}`, () =>
      rpc.call(
        "scantxoutset",
        ["start", [`addr(${prepared.fromAddress})`]],
        z.object({
          success: z.boolean().optional(),
          unspents: z.array(z.object({ txid: hashSchema, vout: z.number().int().nonnegative(), amount: amountSchema })),
        }),
        { timeoutMs: scanTimeoutMs },
      ),
    );
    if (scan.success === false) throw new ChainError("scantxoutset was aborted", { retryable: true });
    const unspent = scan.unspents.map((output) => ({ txid: output.txid, vout: output.vout, valueMinor: output.amount }));

    // Reservations end when the coin is spent in a block (gone from the UTXO set).
    const onChain = new Set(unspent.map((output) => outpointKey(output.txid, output.vout)));
    for (const key of wallet.reserved.keys()) if (!onChain.has(key)) wallet.reserved.delete(key);

    // gettxout with the mempool answers null for a coin a mempool transaction spends.
    const answers = await rpc.callBatch(
      "gettxout",
      unspent.map((output) => [output.txid, output.vout, true]),
      z.object({ value: amountSchema }).nullable(),
    );
    const unsettledTxids = new Set(wallet.unsettled.map((broadcast) => broadcast.txid));
    return unspent.filter((output, index) => {
      const answer = answers[index];
      if (!answer.ok) throw answer.error;
      const isSpentInMempool = answer.value === null;
      const key = outpointKey(output.txid, output.vout);
      const spender = wallet.reserved.get(key);
      // Our spender left the mempool (evicted, replaced): the coin is free again, unless the
      // spender is a broadcast we are unsure of, which may still arrive.
      if (spender !== undefined && !isSpentInMempool && !unsettledTxids.has(spender)) wallet.reserved.delete(key);
      return !isSpentInMempool && !wallet.reserved.has(key);
    });
  }

  /** Fee rate in minor units per 1000 vB: the estimate, never below what the node relays. */
  async function readFeeRate(): Promise<bigint> {
    const [estimate, networkInfo, mempoolInfo] = await Promise.all([
      rpc.call("estimatesmartfee", [CONFIRMATION_TARGET], z.object({ feerate: amountSchema.optional() })),
      rpc.call("getnetworkinfo", [], z.object({ relayfee: amountSchema })),
      rpc.call("getmempoolinfo", [], z.object({ mempoolminfee: amountSchema.optional() })),
    ]);
    const floor = [networkInfo.relayfee, mempoolInfo.mempoolminfee ?? 0n].reduce((a, b) => (a > b ? a : b));
    if (estimate.feerate !== undefined) return estimate.feerate > floor ? estimate.feerate : floor;
    // A regtest node has no fee history: its relay floor is the rate. On a public chain a missing
    // estimate means the node has not seen enough blocks yet, and guessing could strand the payout.
    if ((await chain()) === "regtest") return floor;
    throw new ChainError("The node has no fee estimate yet", { retryable: true });
  }

  /** Where the node sees a transaction: mempool (pending), active chain (confirmed), or nowhere (unknown). */
  async function readTransactionState(txid: string): Promise<SentTransactionState> {
    try {
      const transaction = await rpc.call(
        "getrawtransaction",
        [txid, true],
        z.object({ blockhash: hashSchema.optional() }),
      );
      if (transaction.blockhash === undefined) return { state: "pending", confirmations: 0, blockHeight: null };
      const header = await rpc.call("getblockheader", [transaction.blockhash, true], z.object({ height: z.number().int(), confirmations: z.number().int() }));
      // A block off the active chain reports −1 (or 0) confirmations; the mempool was looked at first.
      if (header.confirmations < 1) return { state: "unknown", confirmations: 0, blockHeight: null };
      return { state: "confirmed", confirmations: header.confirmations, blockHeight: header.height };
    } catch (error) {
      if (!(error instanceof UtxoRpcError) || error.nodeError?.code !== RPC_INVALID_ADDRESS_OR_KEY) throw error;
    }
    // Without -txindex a confirmed transaction is found only through an unspent output: our sends
    // have the payment at 0 and change at 1.
    for (const vout of [0, 1]) {
      const output = await rpc.call(
        "gettxout",
        [txid, vout, true],
        z.object({ bestblock: hashSchema, confirmations: z.number().int().nonnegative() }).nullable(),
      );
      if (output === null) continue;
      if (output.confirmations === 0) return { state: "pending", confirmations: 0, blockHeight: null };
      const tip = await rpc.call("getblockheader", [output.bestblock, true], z.object({ height: z.number().int() }));
      return { state: "confirmed", confirmations: output.confirmations, blockHeight: tip.height - output.confirmations + 1 };
    }
    return { state: "unknown", confirmations: 0, blockHeight: null };
  }

  /**
   * Broadcasts a signed transaction. Returns "accepted" (now or earlier), "rejected" with the
   * node's refusal, or throws a transport failure (the outcome is unknown).
   */
  async function broadcast(hex: string): Promise<{ accepted: true } | { accepted: false; error: UtxoRpcError }> {
    try {
      await rpc.call("sendrawtransaction", [hex], hashSchema);
      return { accepted: true };
    } catch (error) {
      if (!(error instanceof UtxoRpcError) || error.nodeError === null) throw error;
      // Resending a transaction the node already has in its mempool succeeds; one already mined answers -27.
      if (error.nodeError.code === RPC_VERIFY_ALREADY_IN_CHAIN) return { accepted: true };
      return { accepted: false, error };
    }
  }

  /**
   * A retried payout whose earlier broadcast had no clear answer gets that same transaction again,
   * never a second one that could also be mined. Returns its txid, or null when the node refuses it
   * for good (its coins are then released and the payout is built afresh).
   */
  async function settleEarlierBroadcast(prepared: PreparedSend, wallet: WalletState): Promise<string | null> {
    const earlier = wallet.unsettled.find((broadcast) => broadcast.toAddress === prepared.toAddress && broadcast.amountMinor === prepared.amountMinor);
    if (!earlier) return null;
    const state = await readTransactionState(earlier.txid);
    const outcome = state.state === "unknown" ? await broadcast(earlier.hex) : ({ accepted: true } as const);
    wallet.unsettled = wallet.unsettled.filter((broadcast) => broadcast !== earlier);
    if (outcome.accepted) return earlier.txid;
    for (const [key, spender] of wallet.reserved) if (spender === earlier.txid) wallet.reserved.delete(key);
    return null;
  }

  async function sendLocked(prepared: PreparedSend, wallet: WalletState): Promise<{ txid: string }> {
    const earlierTxid = await settleEarlierBroadcast(prepared, wallet);
    if (earlierTxid) return { txid: earlierTxid };

    const [candidates, feeRatePerKvB] = await Promise.all([listSpendable(prepared, wallet), readFeeRate()]);
    const selection = selectCoins({
      candidates,
      amountMinor: prepared.amountMinor,
      recipientScriptLength: prepared.recipientScript.length,
      changeScriptLength: prepared.walletScript.length,
      feeRatePerKvB,
      dustLimitMinor: network.dustLimitMinor,
      inputKind: prepared.inputKind,
    });
    // Retryable: confirmations of earlier payouts' change, or a top-up, make the coins spendable.
    if (!selection.ok) {
      throw new ChainError(`The hot wallet has ${selection.availableMinor} spendable, the payout needs ${selection.requiredMinor} (minor units)`, {
        retryable: true,
      });
    }
    const previousTransactions = new Map<string, string>();
    if (prepared.inputKind === "p2pkh") {
      for (const txid of new Set(selection.inputs.map((input) => input.txid))) {
        previousTransactions.set(txid, await rpc.call("getrawtransaction", [txid, false], z.string().regex(/^[0-9a-f]+$/i)));
      }
    }
    const signed = signTransaction(prepared, selection.inputs, selection.changeMinor, previousTransactions);
    const reserve = () => {
      for (const input of selection.inputs) wallet.reserved.set(outpointKey(input.txid, input.vout), signed.txid);
    };

    let outcome: Awaited<ReturnType<typeof broadcast>>;
    try {
      outcome = await broadcast(signed.hex);
    } catch (error) {
      // The node may have taken it. Keep its coins and the signed transaction, so that a retry of
      // this payout resends it instead of paying a second time.
      reserve();
      wallet.unsettled.push({ txid: signed.txid, hex: signed.hex, toAddress: prepared.toAddress, amountMinor: prepared.amountMinor });
      throw new ChainError(`Broadcast of ${signed.txid} got no answer; retrying the same payout resends it`, { retryable: true, cause: error });
    }
    if (!outcome.accepted) {
      const reason = outcome.error.nodeError?.message ?? "";
      throw new ChainError(`The node rejected the payout: ${reason.slice(0, 200)}`, { retryable: RETRYABLE_REJECTION.test(reason), cause: outcome.error });
    }
    reserve();
    return { txid: signed.txid };
  }

  return {
    network: network.id,
    chain,

    async estimateFee(from, transfer): Promise<FeeEstimate> {
      const prepared = prepareSend(network, await chain(), from, transfer, options.scriptType);
      // Under the lock: listing the coins also updates the reservations a running send relies on.
      const [candidates, feeRatePerKvB] = await runExclusive(prepared.walletKey, () =>
        Promise.all([listSpendable(prepared, walletState(prepared.walletKey)), readFeeRate()]),
      );
      const selection = selectCoins({
        candidates,
        amountMinor: prepared.amountMinor,
        recipientScriptLength: prepared.recipientScript.length,
        changeScriptLength: prepared.walletScript.length,
        feeRatePerKvB,
        dustLimitMinor: network.dustLimitMinor,
        inputKind: prepared.inputKind,
      });
      // Without enough coins, quote the smallest payout transaction: one input, payment and change.
      const feeMinor = selection.ok
        ? selection.feeMinor
        : feeForVsize(feeRatePerKvB, estimateVsize(prepared.inputKind, 1, [prepared.recipientScript.length, prepared.walletScript.length]));
      return { feeMinor, feeCurrency: network.symbol };
    },

    async send(from, transfer) {
      const prepared = prepareSend(network, await chain(), from, transfer, options.scriptType);
      return runExclusive(prepared.walletKey, () => sendLocked(prepared, walletState(prepared.walletKey)));
    },

    getTransaction: readTransactionState,
  };
}
