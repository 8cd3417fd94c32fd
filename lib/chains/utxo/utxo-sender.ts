import * as ecc from "@bitcoinerlab/secp256k1";
import { address as bitcoinAddress, payments, Psbt, Transaction, type Network as BitcoinjsNetwork } from "bitcoinjs-lib";
import { z } from "zod";
import type { NetworkId } from "@/lib/catalogue";
import { log } from "@/lib/log";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";
import { validateAddress } from "@/lib/chains/addresses/validate-address";
import { ChainError, type BroadcastOutcome, type ChainSender, type FeeEstimate, type OutgoingTransfer, type SentRecord, type SentTransactionState, type SignedTransaction, type SigningContext, type SigningKey } from "../types";
import { createKeyedMutex } from "@/lib/db/keyed-mutex";
import { planReplacementFee } from "./replace-by-fee";
import { estimateVsize, feeForVsize, selectCoins, type InputKind, type SpendableOutput } from "./select-coins";
import { coinAmountSchema, createChainResolver, getUtxoNetwork, hashSchema, type UtxoNetwork } from "./utxo-network";
import { createUtxoRpc, UtxoRpcError, type UtxoRpc } from "./utxo-rpc";
import type { FetchFunction } from "../rpc-endpoints";

export interface UtxoSenderOptions {
  network: NetworkId;
  /** `http://user:password@host:port` of the node; it needs no wallet. */
  rpcUrl: string;
  /** The fetch requests go through (the network's endpoint pool, with failover); the global fetch when unset. */
  fetch?: FetchFunction;
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
/** How long `scantxoutset abort` may take: the node answers it at once. */
const SCAN_ABORT_TIMEOUT_MS = 5_000;
/**
 * Every input's sequence: below 0xfffffffe signals BIP125 replaceability from the first broadcast,
 * so a transaction stuck under a rising fee market can be replaced by one paying more.
 */
const RBF_SEQUENCE = 0xfffffffd;
/** Blocks `estimatesmartfee` aims at. */
const CONFIRMATION_TARGET = 6;
/** "No such mempool or blockchain transaction". */
const RPC_INVALID_ADDRESS_OR_KEY = -5;
/** "Transaction already in block chain" (sendrawtransaction). */
const RPC_VERIFY_ALREADY_IN_CHAIN = -27;
/**
 * Node refusals that do not settle the transaction's fate by themselves: the fee rate moved (the
 * same bytes may be taken later), or an input is spent — by these very bytes, or by another
 * transaction, which `canStillLand` tells apart.
 */
const RETRYABLE_REJECTION = /conflict|missingorspent|missing-inputs|fee not met|insufficient fee|too-long-mempool-chain/i;

// The node runs one `scantxoutset` at a time: callers in this process queue per node instead of failing.
const globalForUtxo = globalThis as unknown as { gatewayUtxoScanLocks?: ReturnType<typeof createKeyedMutex> };
const runExclusive = (globalForUtxo.gatewayUtxoScanLocks ??= createKeyedMutex());

function outpointKey(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

/** A send checked and decoded, ready for coin selection. */
interface PreparedSend {
  inputKind: InputKind;
  bitcoinjs: BitcoinjsNetwork;
  fromAddress: string;
  /** The sending key's script: the script of its coins. */
  walletScript: Uint8Array;
  /** Where change goes: the transfer's change address, else the sending key's own script. */
  changeScript: Uint8Array;
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
  let changeScript: Uint8Array = payment.output;
  if (transfer.changeAddress !== undefined) {
    const change = validateAddress(network.id, transfer.changeAddress, { chain });
    if (!change.ok) refuse("The change address is not an address of this network");
    changeScript = bitcoinAddress.toOutputScript(change.normalized, params.bitcoinjs);
  }
  return {
    inputKind,
    bitcoinjs: params.bitcoinjs,
    fromAddress: payment.address,
    walletScript: payment.output,
    changeScript,
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
      psbt.addInput({ hash: input.txid, index: input.vout, sequence: RBF_SEQUENCE, witnessUtxo: { script: prepared.walletScript, value: input.valueMinor } });
    } else {
      psbt.addInput({ hash: input.txid, index: input.vout, sequence: RBF_SEQUENCE, nonWitnessUtxo: Buffer.from(previousTransactions.get(input.txid)!, "hex") });
    }
  }
  psbt.addOutput({ script: prepared.recipientScript, value: prepared.amountMinor });
  if (changeMinor > 0n) psbt.addOutput({ script: prepared.changeScript, value: changeMinor });
  psbt.signAllInputs(prepared.signer);
  if (!psbt.validateSignaturesOfAllInputs((publicKey, hash, signature) => ecc.verify(hash, publicKey, signature))) {
    throw new ChainError("A signature of the payout did not verify", { retryable: false });
  }
  const transaction = psbt.finalizeAllInputs().extractTransaction();
  return { txid: transaction.getId(), hex: transaction.toHex() };
}

/**
 * The sending half of a UTXO network for hot wallets with a P2WPKH (or P2PKH) key: coins from
 * the node's UTXO set (`scantxoutset`, so the node needs no wallet), fee from `estimatesmartfee`,
 * a PSBT signed here, then `sendrawtransaction`.
 *
 * Coins spent by the key's transactions still in flight (the caller's database hands them in)
 * and coins any mempool transaction spends are never selected, so concurrent senders never spend
 * one coin twice. Unconfirmed change is not spent either (`scantxoutset` sees confirmed coins
 * only): a wallet that pays often needs several confirmed coins.
 */
export function createUtxoSender(options: UtxoSenderOptions): UtxoSender {
  const network = getUtxoNetwork(options.network);
  const rpc: UtxoRpc = createUtxoRpc({ rpcUrl: options.rpcUrl, fetch: options.fetch, timeoutMs: options.timeoutMs });
  const knownChain = options.chain;
  const chain = knownChain ? () => Promise.resolve(knownChain) : createChainResolver(rpc);
  const amountSchema = coinAmountSchema(network.decimals);
  const scanTimeoutMs = Math.max(options.timeoutMs ?? 0, SCAN_TIMEOUT_MS);

  /**
   * The confirmed coins of `address` that neither our in-flight transactions (`reserved`) nor
   * anyone in the mempool spends: what a transfer from it may spend. `timeoutMs`, when set, bounds
   * the whole read, the wait for this node's scan included.
   */
  async function listSpendable(address: string, reserved: ReadonlySet<string>, timeoutMs?: number): Promise<SpendableOutput[]> {
    const startedAt = Date.now();
    const timeLeft = (method: string): number | undefined => {
      if (timeoutMs === undefined) return undefined;
      const left = timeoutMs - (Date.now() - startedAt);
      if (left <= 0) throw new UtxoRpcError(`${method}: the node did not answer within ${timeoutMs} ms`, { retryable: true });
      return left;
    };
    const scan = await runExclusive(`scantxoutset|${rpc.endpoint}`, async () => {
      const left = timeLeft("scantxoutset");
      try {
        return await rpc.call(
          "scantxoutset",
          ["start", [`addr(${address})`]],
          z.object({
            success: z.boolean().optional(),
            unspents: z.array(z.object({ txid: hashSchema, vout: z.number().int().nonnegative(), amount: amountSchema })),
          }),
          { timeoutMs: left ?? scanTimeoutMs },
        );
      } catch (error) {
        // The node goes on scanning after its caller gave up, and refuses every other scan
        // meanwhile (payouts' too): a read with a deadline stops the scan it started. The lock is
        // still held, so no scan of this process can start in between and be stopped instead.
        if (left !== undefined && error instanceof UtxoRpcError && error.nodeError === null) {
          await rpc.call("scantxoutset", ["abort"], z.boolean(), { timeoutMs: SCAN_ABORT_TIMEOUT_MS }).catch(() => undefined);
        }
        throw error;
      }
    });
    if (scan.success === false) throw new ChainError("scantxoutset was aborted", { retryable: true });
    const unspent = scan.unspents.map((output) => ({ txid: output.txid, vout: output.vout, valueMinor: output.amount }));
    // gettxout with the mempool answers null for a coin a mempool transaction spends.
    const answers = await rpc.callBatch(
      "gettxout",
      unspent.map((output) => [output.txid, output.vout, true]),
      z.object({ value: amountSchema }).nullable(),
      { timeoutMs: unspent.length === 0 ? undefined : timeLeft("gettxout") },
    );
    return unspent.filter((output, index) => {
      const answer = answers[index];
      if (!answer.ok) throw answer.error;
      return answer.value !== null && !reserved.has(outpointKey(output.txid, output.vout));
    });
  }

  /** Fee rate in minor units per 1000 vB: the estimate, never below what the node relays. */
  async function readFeeRate(): Promise<bigint> {
    return (await readFeeRates()).feeRatePerKvB;
  }

  /** The market's fee rate and the node's increment for a replacement (BIP125 rule 4), per 1000 vB. */
  async function readFeeRates(): Promise<{ feeRatePerKvB: bigint; incrementalPerKvB: bigint }> {
    const [estimate, networkInfo, mempoolInfo] = await Promise.all([
      rpc.call("estimatesmartfee", [CONFIRMATION_TARGET], z.object({ feerate: amountSchema.optional() })),
      rpc.call("getnetworkinfo", [], z.object({ relayfee: amountSchema, incrementalfee: amountSchema.optional() })),
      rpc.call("getmempoolinfo", [], z.object({ mempoolminfee: amountSchema.optional() })),
    ]);
    const incrementalPerKvB = networkInfo.incrementalfee ?? networkInfo.relayfee;
    const floor = [networkInfo.relayfee, mempoolInfo.mempoolminfee ?? 0n].reduce((a, b) => (a > b ? a : b));
    if (estimate.feerate !== undefined) return { feeRatePerKvB: estimate.feerate > floor ? estimate.feerate : floor, incrementalPerKvB };
    // A regtest node has no fee history: its relay floor is the rate. On a public chain a missing
    // estimate means the node has not seen enough blocks yet, and guessing could strand the payout.
    if ((await chain()) === "regtest") return { feeRatePerKvB: floor, incrementalPerKvB };
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

  async function broadcast(signed: Pick<SignedTransaction, "txid" | "raw">): Promise<BroadcastOutcome> {
    try {
      await rpc.call("sendrawtransaction", [signed.raw], hashSchema);
      return { kind: "accepted" };
    } catch (error) {
      if (!(error instanceof UtxoRpcError)) throw error;
      if (error.nodeError !== null) {
        // Resending a transaction the node already has in its mempool succeeds; one already mined answers -27.
        if (error.nodeError.code === RPC_VERIFY_ALREADY_IN_CHAIN || /txn-already-in-mempool|txn-already-known/i.test(error.nodeError.message)) {
          return { kind: "accepted" };
        }
        const reason = `The node rejected the transaction: ${error.nodeError.message.slice(0, 200)}`;
        // A code about the node's state (warming up, no peers, busy) says nothing about the bytes.
        return { kind: "rejected", reason, retryable: error.retryable || RETRYABLE_REJECTION.test(error.nodeError.message) };
      }
    }
    // No answer: the node may have taken it.
    const state = await readTransactionState(signed.txid).catch(() => null);
    return state && state.state !== "unknown" ? { kind: "accepted" } : { kind: "uncertain", reason: "the node did not answer the broadcast" };
  }

  /** A P2PKH input signs over its whole previous transaction: raw hex by txid (none for P2WPKH). */
  async function previousTransactionsOf(prepared: PreparedSend, inputs: readonly SpendableOutput[]): Promise<Map<string, string>> {
    const previousTransactions = new Map<string, string>();
    if (prepared.inputKind !== "p2pkh") return previousTransactions;
    for (const txid of new Set(inputs.map((input) => input.txid))) {
      previousTransactions.set(txid, await rpc.call("getrawtransaction", [txid, false], z.string().regex(/^[0-9a-f]+$/i)));
    }
    return previousTransactions;
  }

  /** What the coins at `outpoints` hold, read from the chain without the mempool; null for one spent in a block. */
  async function readCoins(outpoints: readonly string[]): Promise<(SpendableOutput | null)[]> {
    const answers = await rpc.callBatch(
      "gettxout",
      outpoints.map((outpoint) => {
        const [txid, vout] = outpoint.split(":");
        return [txid, Number(vout), false];
      }),
      z.object({ value: amountSchema }).nullable(),
    );
    return answers.map((answer, index) => {
      if (!answer.ok) throw answer.error;
      if (answer.value === null) return null;
      const [txid, vout] = outpoints[index].split(":");
      return { txid, vout: Number(vout), valueMinor: answer.value.value };
    });
  }

  /**
   * The state of a sent transfer: its latest signing, or an earlier one it replaced (only one of
   * them can be mined, as they spend the same coins). The fee booked is the one that landed.
   */
  async function getTransaction(txid: string, sent?: SentRecord): Promise<SentTransactionState> {
    const latest = await readTransactionState(txid);
    const earlier = sent?.consumes.supersedes ?? [];
    if (latest.state !== "unknown" || earlier.length === 0) return latest;
    for (const candidate of earlier) {
      const state = await readTransactionState(candidate);
      if (state.state === "unknown") continue;
      return { ...state, landedTxid: candidate, feeMinor: await readFee(candidate) };
    }
    return latest;
  }

  /** A transaction's fee: its inputs (read from the transactions that made them) less its outputs. */
  async function readFee(txid: string): Promise<bigint> {
    const transactionSchema = z.object({
      vin: z.array(z.object({ txid: hashSchema, vout: z.number().int().nonnegative() })),
      vout: z.array(z.object({ value: amountSchema, n: z.number().int().nonnegative() })),
    });
    const transaction = await rpc.call("getrawtransaction", [txid, true], transactionSchema);
    let inputsMinor = 0n;
    for (const input of transaction.vin) {
      const previous = await rpc.call("getrawtransaction", [input.txid, true], transactionSchema);
      const spent = previous.vout.find((output) => output.n === input.vout);
      if (!spent) throw new ChainError(`${input.txid} has no output ${input.vout}`, { retryable: true });
      inputsMinor += spent.value;
    }
    return inputsMinor - transaction.vout.reduce((sum, output) => sum + output.value, 0n);
  }

  async function selectFor(prepared: PreparedSend, reserved: ReadonlySet<string>) {
    const [candidates, feeRatePerKvB] = await Promise.all([listSpendable(prepared.fromAddress, reserved), readFeeRate()]);
    const selection = selectCoins({
      candidates,
      amountMinor: prepared.amountMinor,
      recipientScriptLength: prepared.recipientScript.length,
      changeScriptLength: prepared.changeScript.length,
      feeRatePerKvB,
      dustLimitMinor: network.dustLimitMinor,
      inputKind: prepared.inputKind,
    });
    return { selection, feeRatePerKvB };
  }

  return {
    network: network.id,
    chain,

    async estimateFee(from, transfer): Promise<FeeEstimate> {
      const prepared = prepareSend(network, await chain(), from, transfer, options.scriptType);
      const { selection, feeRatePerKvB } = await selectFor(prepared, new Set());
      // Without enough coins, quote the smallest payout transaction: one input, payment and change.
      const feeMinor = selection.ok
        ? selection.feeMinor
        : feeForVsize(feeRatePerKvB, estimateVsize(prepared.inputKind, 1, [prepared.recipientScript.length, prepared.changeScript.length]));
      return { feeMinor, feeCurrency: network.symbol };
    },

    async sign(from, transfer, context: SigningContext): Promise<SignedTransaction> {
      const prepared = prepareSend(network, await chain(), from, transfer, options.scriptType);
      const reserved = new Set(context.inFlight.flatMap((transaction) => transaction.consumes.outpoints ?? []));
      const { selection } = await selectFor(prepared, reserved);
      // Short of funds, and retryable: the change of transactions in flight confirms, or a
      // top-up arrives, and the same transfer goes (the key's other transfers wait meanwhile).
      if (!selection.ok) {
        throw new ChainError(`The hot wallet has ${selection.availableMinor} spendable, the payout needs ${selection.requiredMinor} (minor units)`, {
          retryable: true,
          isShortOfFunds: true,
        });
      }
      const signedAtHeight = await rpc.call("getblockcount", [], z.number().int().nonnegative());
      const signed = signTransaction(prepared, selection.inputs, selection.changeMinor, await previousTransactionsOf(prepared, selection.inputs));
      return {
        txid: signed.txid,
        raw: signed.hex,
        consumes: { outpoints: selection.inputs.map((input) => outpointKey(input.txid, input.vout)), signedAtHeight },
        // Exact: the inputs minus the outputs.
        feeMinor: selection.feeMinor,
      };
    },

    broadcast,
    getTransaction,

    /** The outputs of the transaction that pay `toAddress` (in the chain's formats, as the node decodes them). */
    async readDelivered(txid, _sent, delivery) {
      if (delivery.currency !== network.symbol) refuse(`${network.id} carries only ${network.symbol}, not ${delivery.currency}`);
      const recipient = validateAddress(network.id, delivery.toAddress, { chain: await chain() });
      if (!recipient.ok) refuse(`${delivery.toAddress} is not a ${network.id} address`);
      const transaction = await rpc.call(
        "getrawtransaction",
        [txid, true],
        z.object({ vout: z.array(z.object({ value: amountSchema, scriptPubKey: z.object({ address: z.string().optional(), addresses: z.array(z.string()).optional() }) })) }),
      );
      // (Older nodes list an output's address in `addresses`.)
      return transaction.vout
        .filter((output) => (output.scriptPubKey.address ?? output.scriptPubKey.addresses?.[0]) === recipient.normalized)
        .reduce((sum, output) => sum + output.value, 0n);
    },

    /**
     * A transaction unmined `afterBlocks` after its signing is signed again over the same coins,
     * paying the same amount, with a fee that BIP125 lets replace it (see planReplacementFee):
     * the raise comes out of the change. Null when it is not stuck (mined, spent, not waited long
     * enough), when it did not signal replaceability, when its change cannot pay the raise, or
     * when the node would not take the replacement.
     */
    async bump(from, transfer, stuck, bumpOptions) {
      const outpoints = stuck.consumes.outpoints ?? [];
      if (outpoints.length === 0) throw new ChainError("a UTXO transaction records the outpoints it spends", { retryable: false });
      const tip = await rpc.call("getblockcount", [], z.number().int().nonnegative());
      const { signedAtHeight } = stuck.consumes;
      if (signedAtHeight !== undefined && tip - signedAtHeight < bumpOptions.afterBlocks) return null;
      for (const txid of [stuck.txid, ...(stuck.consumes.supersedes ?? [])]) {
        if ((await readTransactionState(txid)).state === "confirmed") return null;
      }
      const previous = Transaction.fromHex(stuck.raw);
      if (!previous.ins.every((input) => input.sequence < 0xfffffffe)) return null; // signed before replaceability was signalled
      const coins = await readCoins(outpoints);
      // A coin spent in a block: this transaction (or a rival) is mined, which following tells.
      if (coins.some((coin) => coin === null)) return null;
      const inputs = coins as SpendableOutput[];
      const prepared = prepareSend(network, await chain(), from, transfer, options.scriptType);
      const [payment] = previous.outs;
      if (!payment || payment.value !== prepared.amountMinor || !sameBytes(payment.script, prepared.recipientScript)) {
        throw new ChainError(`the stored transaction ${stuck.txid} does not pay the transfer's recipient its amount`, { retryable: false });
      }
      const inputsMinor = inputs.reduce((sum, coin) => sum + coin.valueMinor, 0n);
      const previousFeeMinor = inputsMinor - previous.outs.reduce((sum, output) => sum + output.value, 0n);
      const rates = await readFeeRates();
      const plan = planReplacementFee({
        inputsMinor,
        amountMinor: prepared.amountMinor,
        previousFeeMinor,
        vsizeWithChange: estimateVsize(prepared.inputKind, inputs.length, [prepared.recipientScript.length, prepared.changeScript.length]),
        vsizeWithoutChange: estimateVsize(prepared.inputKind, inputs.length, [prepared.recipientScript.length]),
        feeRatePerKvB: rates.feeRatePerKvB,
        incrementalPerKvB: rates.incrementalPerKvB,
        dustLimitMinor: network.dustLimitMinor,
      });
      if (!plan.ok) {
        // It waits as it is: the other transfers of the hot wallet must not wait behind it.
        log.warn("a stuck UTXO transaction cannot be replaced", { network: network.id, txid: stuck.txid, reason: plan.reason });
        return null;
      }
      const signed = signTransaction(prepared, inputs, plan.changeMinor, await previousTransactionsOf(prepared, inputs));
      // Nodes that do not replace (Litecoin Core's default, -mempoolreplacement=0) refuse it: the
      // stuck one then waits as it is rather than be shadowed by a signing no node will carry.
      const [verdict] = await rpc.call("testmempoolaccept", [[signed.hex]], z.array(z.object({ allowed: z.boolean(), "reject-reason": z.string().optional() })));
      if (!verdict?.allowed) {
        log.warn("the node would not take a replacement of a stuck UTXO transaction", { network: network.id, txid: stuck.txid, reason: verdict?.["reject-reason"] ?? "no answer" });
        return null;
      }
      return {
        txid: signed.txid,
        raw: signed.hex,
        consumes: { outpoints, signedAtHeight: tip, supersedes: [...(stuck.consumes.supersedes ?? []), stuck.txid] },
        feeMinor: plan.feeMinor,
      };
    },

    async getBalance(address, currency, readOptions = {}) {
      if (currency !== network.symbol) refuse(`${network.id} carries only ${network.symbol}, not ${currency}`);
      // Only an address may go into the descriptor; the node checks that it is one of its chain's.
      if (!/^[a-zA-Z0-9]+$/.test(address)) refuse(`${address} is not a ${network.id} address`);
      // What a payout from the address could spend: the coins its signing would choose from.
      const coins = await listSpendable(address, new Set(), readOptions.timeoutMs);
      return coins.reduce((sum, coin) => sum + coin.valueMinor, 0n);
    },

    async canStillLand(signed) {
      const outpoints = signed.consumes.outpoints ?? [];
      if (outpoints.length === 0) throw new ChainError("a UTXO transaction records the outpoints it spends", { retryable: false });
      // Only a spend in a block is a fact: a rival in the mempool may still be evicted or
      // replaced, and these bytes mined after all.
      const coins = await readCoins(outpoints);
      const spentInBlock = outpoints.filter((_, index) => coins[index] === null);
      if (spentInBlock.length === 0) return true;
      // A node that lags may not have the coin yet: it is spent only if the block that made it is
      // on this node's chain.
      for (const outpoint of spentInBlock) {
        if ((await readTransactionState(outpoint.split(":")[0])).state === "confirmed") {
          // The spender may be this very transaction, or a signing of it it replaced: it has
          // landed then, and calling it dead would send its purpose twice.
          for (const txid of [signed.txid, ...(signed.consumes.supersedes ?? [])]) {
            if ((await readTransactionState(txid)).state !== "unknown") return true;
          }
          return false;
        }
      }
      return true;
    },
  };
}
