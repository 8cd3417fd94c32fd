import type { GatewayConfig, HotWalletLimit } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db, Tx } from "@/lib/db/client";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { validateAddress } from "@/lib/chains/addresses/validate-address";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf, getChainSender } from "@/lib/chains/registry";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import type { ChainSender, SigningKey } from "@/lib/chains/types";
import { hotWalletExcess } from "@/lib/domain/cold-storage/hot-wallet-excess";
import { assetKey, PLATFORM } from "@/lib/ledger/postings";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { planOutgoingTransfer } from "@/lib/services/outgoing/plan-outgoing";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { payoutConfirmations } from "@/lib/services/payouts/send-payouts";

export interface ColdStorageDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "replaceAfterSeconds" | "hotWalletLimits">;
  now(): Date;
}

export interface ColdStorageOptions {
  /** Only this network's limits. */
  network?: string;
  /** Deadline of each chain read (balance, fee estimate), in milliseconds. */
  timeoutMs: number;
  /** Work out the figures only: plan, send, follow and record nothing. */
  isDryRun?: boolean;
}

/** One limited asset after a pass. Amounts in the asset's minor units. */
export interface HotWalletLimitCheck {
  network: string;
  currency: string;
  coldAddress: string;
  max: bigint;
  /** The hot wallet by the books: the service's custody less what the books leave on deposit addresses. */
  ledgerHeld: bigint;
  /** The hot wallet by the chain; null when it could not be read (then nothing moves). */
  chainHeld: bigint | null;
  /** What stays for payouts: merchants' payout_held (live payouts and payout links). */
  reserved: bigint;
  /** The service's other transfers from the hot wallet on their way (and their fees, for the native coin). */
  inFlight: bigint;
  /** What the move itself may cost, kept back when the asset pays its own fee. */
  feeReserve: bigint;
  /** Above the maximum after all that, and not leaving yet (a move planned by this pass leaves it at 0). */
  excess: bigint;
  /** The transfer to cold storage on its way (planned by this pass or an earlier one), if any. */
  transfer: { id: string; reference: string; status: string; amount: bigint; txid: string | null } | null;
  /** Whether this pass planned that transfer. */
  isPlanned: boolean;
  /** Why nothing moves when something might: an unreadable chain, a refused cold address, a race. */
  note: string;
}

/** The transfers of this job: moves to cold storage, from the hot wallet only. */
export const COLD_TRANSFERS = (hotAddress: string) => ({ fromAddress: hotAddress, kinds: ["cold"] });
const LIVE_STATUSES = ["planned", "signed", "broadcast", "seen"];
/** Fee kept back when the coin pays for its own move: the estimate with room for price moves (as sweeps). */
const FEE_MARGIN_PERCENT = 150n;

/** A network's hot wallet as a move to cold storage leaves it: its chain and its key. */
export interface HotWallet {
  sender: ChainSender;
  hot: SigningKey;
  chain: ReturnType<typeof addressChainOf>;
  keyFor(transfer: { fromIndex: number }): SigningKey;
  /** Confirmations after which a move is final: a payout's. */
  confirmations: number;
}

/** The network's chain and hot wallet key, or null when no chain serves the network. */
export async function openHotWallet(deps: Pick<ColdStorageDeps, "db" | "secretBox" | "config">, network: NetworkId): Promise<HotWallet | null> {
  const sender = getChainSender(deps.db, deps.config, network);
  if (!sender) return null;
  const chain = addressChainOf(deps.config, network);
  const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), network, HOT_WALLET_INDEX, chain);
  const keyFor = (transfer: { fromIndex: number }) => {
    if (transfer.fromIndex !== HOT_WALLET_INDEX) throw new Error("moves to cold storage leave from the hot wallet only");
    return hot;
  };
  return { sender, hot, chain, keyFor, confirmations: payoutConfirmations(network) };
}

/**
 * The configured cold address in the network's canonical form, or why it cannot take the excess:
 * it must be an address of the network in the formats of the chain that serves it (known only
 * once its node said which chain it is, hence checked here and not at start), and not one of the
 * service's own — the hot wallet itself, or a deposit address (the move would come back as
 * somebody's payment).
 */
export async function checkColdAddress(
  deps: Pick<ColdStorageDeps, "db" | "secretBox" | "config">,
  network: NetworkId,
  limit: HotWalletLimit,
  hotAddress: string,
  chain: ReturnType<typeof addressChainOf>,
): Promise<{ address: string } | { refusal: string }> {
  const validation = validateAddress(network, limit.coldAddress, { chain });
  if (!validation.ok) {
    return { refusal: validation.reason === "wrong_network" ? `the cold address is an address of another network or chain than ${network} (${chain})` : `the cold address is not a valid ${network} address` };
  }
  if (validation.normalized === hotAddress) return { refusal: "the cold address is the hot wallet itself" };
  try {
    await assertNotGatewayAddress(deps, { network, address: validation.normalized });
  } catch (error) {
    if (error instanceof AppError) return { refusal: "the cold address belongs to this service (its hot wallet or a deposit address)" };
    throw error;
  }
  return { address: validation.normalized };
}

/**
 * The chain's figures of one limited asset, read outside any transaction: the hot wallet's
 * balance and, when the coin pays for its own move, the fee to keep back.
 */
export async function readChainFigures(deps: Pick<ColdStorageDeps, "now">, sender: ChainSender, hot: SigningKey, limit: HotWalletLimit, options: ColdStorageOptions): Promise<ChainFigures> {
  const { network, currency } = limit;
  const nativeSymbol = findNetwork(network)!.nativeSymbol;
  // Anything that changes the hot wallet from here on (a move to cold storage confirming) makes
  // this chain read stale: the plan gives way to the next pass then.
  const startedAt = deps.now();
  let chainHeld: bigint | null = null;
  let note = "";
  try {
    chainHeld = await sender.getBalance(hot.address, currency, { timeoutMs: options.timeoutMs });
  } catch (error) {
    note = `the hot wallet's balance could not be read: ${reasonOf(error)}`;
  }
  // The move's own fee, kept back when the coin pays it: estimated only when there may be something to move.
  let feeReserve = 0n;
  if (currency === nativeSymbol && chainHeld !== null && chainHeld > limit.maxMinor) {
    try {
      const estimate = await sender.estimateFee(hot, { currency, toAddress: limit.coldAddress, amountMinor: chainHeld - limit.maxMinor });
      // Rounded up: the margin favours the hot wallet (a fee that rose stays covered).
      feeReserve = (estimate.feeMinor * FEE_MARGIN_PERCENT + 99n) / 100n;
    } catch (error) {
      note = `the move's fee could not be estimated: ${reasonOf(error)}`;
      chainHeld = null;
    }
  }
  return { chainHeld, feeReserve, note, startedAt, isDryRun: options.isDryRun === true };
}

/** What an operator reads of a check: a move planned, or an excess left where it is. */
export function logCheck(limit: HotWalletLimit, check: HotWalletLimitCheck): void {
  const { network, currency } = limit;
  if (check.isPlanned) {
    log.info("hot wallet above its limit: the excess is planned to cold storage", {
      network,
      currency,
      amount: check.transfer?.amount,
      max: limit.maxMinor,
      reserved: check.reserved,
      reference: check.transfer?.reference,
      coldAddress: limit.coldAddress,
    });
  } else if (check.excess > 0n && !check.transfer) {
    log.warn("hot wallet above its limit; nothing planned this pass", { network, currency, excess: check.excess, note: check.note });
  }
}

export interface ChainFigures {
  chainHeld: bigint | null;
  feeReserve: bigint;
  note: string;
  startedAt: Date;
  isDryRun: boolean;
}

/** The books' figures and the decision, in one transaction with the plan it makes. */
export async function decideAndPlan(tx: Tx, deps: Pick<ColdStorageDeps, "now">, hot: SigningKey, limit: HotWalletLimit, chain: ChainFigures): Promise<HotWalletLimitCheck> {
  const { network, currency } = limit;
  const nativeSymbol = findNetwork(network)!.nativeSymbol;
  const asset = assetKey(currency, network);
  const isNative = currency === nativeSymbol;
  // What the books leave on deposit addresses: confirmed deposits, less what sweeps brought to the
  // hot wallet; on the native coin also plus the gas the hot wallet gave them and less the fees
  // their own transfers paid (booked when final). The rest of the custody is the hot wallet's.
  const [books] = await tx.$queryRaw<{ custody: string; onDeposits: string; reserved: string }[]>`
    SELECT
      COALESCE((SELECT -balance FROM ledger_accounts WHERE owner = ${PLATFORM} AND asset = ${asset} AND bucket = 'chain'), 0)::text AS custody,
      (COALESCE((SELECT SUM(amount_minor) FROM chain_transfers
                 WHERE network = ${network} AND currency = ${currency} AND status = 'confirmed' AND (invoice_id IS NOT NULL OR static_wallet_id IS NOT NULL)), 0)
       - COALESCE((SELECT SUM(amount_minor) FROM outgoing_transfers
                   WHERE network = ${network} AND currency = ${currency} AND kind = 'sweep' AND status = 'confirmed'), 0)
       + CASE WHEN ${isNative} THEN
           COALESCE((SELECT SUM(amount_minor) FROM outgoing_transfers WHERE network = ${network} AND kind = 'gas' AND status = 'confirmed'), 0)
           - COALESCE((SELECT SUM(fee_minor) FROM outgoing_transfers
                       WHERE network = ${network} AND from_address <> ${hot.address} AND status IN ('confirmed', 'failed')), 0)
         ELSE 0 END)::text AS "onDeposits",
      COALESCE((SELECT SUM(balance) FROM ledger_accounts WHERE owner <> ${PLATFORM} AND asset = ${asset} AND bucket = 'payout_held'), 0)::text AS reserved`;
  const ledgerHeld = BigInt(books.custody) - BigInt(books.onDeposits);
  const reserved = BigInt(books.reserved);
  // Payouts on their way are in payout_held already; the rest leaving the hot wallet (gas, a move
  // to cold storage) is counted here, and on the native coin every such transfer's fee.
  const leaving = await tx.outgoingTransfer.findMany({
    where: { network, fromAddress: hot.address, status: { in: LIVE_STATUSES } },
    select: { id: true, kind: true, reference: true, status: true, currency: true, amountMinor: true, feeMinor: true, txid: true, updatedAt: true },
  });
  let inFlight = 0n;
  for (const transfer of leaving) {
    if (transfer.currency === currency && transfer.kind !== "payout") inFlight += BigInt(transfer.amountMinor.toFixed());
    if (currency === nativeSymbol && transfer.feeMinor !== null) inFlight += BigInt(transfer.feeMinor.toFixed());
  }
  const live = leaving.find((transfer) => transfer.kind === "cold" && transfer.currency === currency);
  const figures = { ledgerHeld: ledgerHeld > 0n ? ledgerHeld : 0n, reserved, inFlight, feeReserve: chain.feeReserve, max: limit.maxMinor };
  const excess = chain.chainHeld === null ? 0n : hotWalletExcess({ ...figures, chainHeld: chain.chainHeld });
  const check: HotWalletLimitCheck = {
    network,
    currency,
    coldAddress: limit.coldAddress,
    ...figures,
    chainHeld: chain.chainHeld,
    excess,
    transfer: live ? { id: live.id, reference: live.reference, status: live.status, amount: BigInt(live.amountMinor.toFixed()), txid: live.txid } : null,
    isPlanned: false,
    note: chain.note,
  };
  // One move of an asset on its way at a time: its amount is already counted as leaving.
  if (live || excess === 0n || chain.isDryRun) return check;
  // Another planner may have committed a move since the rows above were read: it is the one on its way.
  const latest = await tx.outgoingTransfer.findFirst({ where: { network, currency, kind: "cold" }, orderBy: { updatedAt: "desc" } });
  if (latest && LIVE_STATUSES.includes(latest.status)) return withTransfer(check, latest, false);
  // The chain was read before a move of this asset settled: its figure may still hold what left.
  if (latest && latest.updatedAt >= chain.startedAt) return { ...check, note: "a move to cold storage settled while the chain was read; the next pass decides" };
  const attempt = await tx.outgoingTransfer.count({ where: { network, currency, kind: "cold" } });
  const reference = `cold:${network}:${currency}:${attempt}`;
  const planned = await planOutgoingTransfer(
    tx,
    { kind: "cold", reference, network, currency, fromAddress: hot.address, fromIndex: HOT_WALLET_INDEX, toAddress: limit.coldAddress, amountMinor: excess, coveredMinor: excess },
    deps.now(),
  );
  // Another planner recorded this move (the same reference) or another one of the asset first.
  const row = await tx.outgoingTransfer.findFirst({ where: { network, currency, kind: "cold", status: { in: LIVE_STATUSES } } });
  return row ? withTransfer(check, row, planned === 1) : check;
}

/** The check with the move on its way: what it takes is no longer over the limit. */
function withTransfer(
  check: HotWalletLimitCheck,
  row: { id: string; reference: string; status: string; amountMinor: { toFixed(): string }; txid: string | null },
  isPlanned: boolean,
): HotWalletLimitCheck {
  const transfer = { id: row.id, reference: row.reference, status: row.status, amount: BigInt(row.amountMinor.toFixed()), txid: row.txid };
  const left = check.excess - transfer.amount;
  return { ...check, excess: left > 0n ? left : 0n, transfer, isPlanned };
}

export function unchecked(limit: HotWalletLimit, note: string): HotWalletLimitCheck {
  return {
    network: limit.network,
    currency: limit.currency,
    coldAddress: limit.coldAddress,
    max: limit.maxMinor,
    ledgerHeld: 0n,
    chainHeld: null,
    reserved: 0n,
    inFlight: 0n,
    feeReserve: 0n,
    excess: 0n,
    transfer: null,
    isPlanned: false,
    note,
  };
}

/** Keeps each limited asset's latest check for /metrics and `wallets status`; assets no longer limited are cleared. */
export async function recordChecks(tx: Tx, limits: readonly HotWalletLimit[], checks: readonly HotWalletLimitCheck[], checkedAt: Date): Promise<void> {
  const limited = new Set(limits.map((limit) => assetKey(limit.currency, limit.network)));
  const existing = await tx.hotWalletLimitCheck.findMany({ select: { network: true, currency: true } });
  for (const row of existing.filter((row) => !limited.has(assetKey(row.currency, row.network)))) {
    await tx.hotWalletLimitCheck.deleteMany({ where: { network: row.network, currency: row.currency } });
  }
  for (const check of checks) {
    const data = {
      checkedAt,
      maxMinor: check.max.toString(),
      heldMinor: check.chainHeld === null ? null : (check.chainHeld < check.ledgerHeld ? check.chainHeld : check.ledgerHeld).toString(),
      reservedMinor: check.reserved.toString(),
      excessMinor: check.excess.toString(),
      transferId: check.transfer?.id ?? null,
      note: check.note.slice(0, 500),
    };
    await tx.hotWalletLimitCheck.upsert({ where: { network_currency: { network: check.network, currency: check.currency } }, create: { network: check.network, currency: check.currency, ...data }, update: data });
  }
}

export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  return text.split("\n")[0].slice(0, 200);
}
