import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db, Tx } from "@/lib/db/client";
import { findNetwork, listNetworks, listSettlementAssets, type NetworkId } from "@/lib/catalogue";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf, getChainSender } from "@/lib/chains/registry";
import type { ChainSender, ConsumedResources } from "@/lib/chains/types";
import { IN_FLIGHT_OUTGOING_STATUSES } from "@/lib/domain/outgoing/transition";
import { assetKey, PLATFORM } from "@/lib/ledger/postings";
import { log } from "@/lib/log";

/**
 * One asset on one network: what the chain says every address the service controls holds,
 * against what the ledger says is there. Amounts in the asset's minor units.
 *
 * The ledger's figure moves only when the books do, the chain's also with transfers the books
 * know are under way, so the chain is expected within a range:
 *   low  = ledger + deposits in blocks not booked yet (confirming, or waiting for review)
 *          − external transfers in flight (they may have landed) − fees of every transfer in flight (upper bounds)
 *   high = ledger + deposits in blocks not booked yet + deposits seen in the mempool
 * Below `low` is a shortfall: the books claim coins the chain does not have (paid twice, a cost
 * never booked, a corrupted row) — that is drift. Above `high` is money the books do not explain
 * (an operator's top-up of the hot wallet, dust, a late payment to an old address): shown as
 * unbooked, not drift.
 */
export interface ReconciledAsset {
  network: string;
  currency: string;
  /** Addresses read: the hot wallet and every deposit address that ever held this asset. */
  addresses: number;
  /** Their sum on chain; null when a read failed (see `note`). */
  chain: bigint | null;
  /** What the ledger says the service holds: minus the platform's chain account. */
  ledger: bigint;
  inFlightOut: bigint;
  inFlightFees: bigint;
  /** Deposits in a block that the books do not hold yet (confirming, or waiting for review). */
  unbookedIn: bigint;
  /** Deposits seen in the mempool only. */
  pendingIn: bigint;
  /** low − chain when the chain holds less than `low`, else 0. */
  shortfall: bigint;
  /** chain − high when the chain holds more than `high`, else 0. */
  surplus: bigint;
  /** Payouts booked as paid whose transaction the chain does not show confirmed. */
  unprovenPayouts: string[];
  /**
   * Transfers booked as dead (failed before the chain, or replaced) whose transaction the chain
   * shows confirmed, by reference (`payout:<uuid>:send:<attempt>`): coins left that the books do
   * not count — a payout paid twice, a sweep sent twice.
   */
  landedDeadTransfers: string[];
  /** Paid payouts and dead transfers whose transaction could not be looked up (a node that did not answer). */
  uncheckedTransactions: number;
  note: string;
}

export interface ReconcileOptions {
  /** Deadline of each chain read, in milliseconds. */
  timeoutMs: number;
  /** Payouts confirmed within this many days are checked against the chain. */
  payoutDays: number;
  now: Date;
}

export interface ReconcileDeps {
  db: Db;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">;
  secretBox: SecretBox;
}

/**
 * Whether a reconciled asset is drift: a shortfall, a payout the chain does not prove, a dead
 * transfer the chain shows landed, or a chain that could not be read.
 */
export function hasDrift(row: ReconciledAsset): boolean {
  return row.shortfall > 0n || row.unprovenPayouts.length > 0 || row.landedDeadTransfers.length > 0 || row.uncheckedTransactions > 0 || row.chain === null;
}

/**
 * Every network a chain serves (or the one named), each asset the service ever touched there,
 * read from the chains (outside any transaction): the rows, and the networks they cover (to be
 * kept with recordReconciliation, drift logged with logDrift). The books are never changed.
 */
export async function readReconciliation(deps: ReconcileDeps, options: ReconcileOptions & { network?: string }): Promise<{ rows: ReconciledAsset[]; networks: string[] }> {
  const rows: ReconciledAsset[] = [];
  const networks: string[] = [];
  for (const network of listNetworks()) {
    if (options.network && network.id !== options.network) continue;
    const sender = getChainSender(deps.db, deps.config, network.id);
    if (!sender) continue;
    const hot = hotWalletAddress(await loadKeyMaterial(deps.db, deps.secretBox), network.id as NetworkId, addressChainOf(deps.config, network.id));
    rows.push(...(await reconcileNetwork(deps.db, network.id, sender, hot, options)));
    networks.push(network.id);
  }
  return { rows, networks };
}

/** Drift is logged as an error for the operator. */
export function logDrift(rows: readonly ReconciledAsset[]): void {
  for (const row of rows.filter(hasDrift)) {
    log.error("reconciliation with the chain found drift", {
      network: row.network,
      currency: row.currency,
      chain: row.chain?.toString() ?? null,
      ledger: row.ledger.toString(),
      shortfall: row.shortfall.toString(),
      unprovenPayouts: row.unprovenPayouts,
      landedDeadTransfers: row.landedDeadTransfers,
      note: row.note,
    });
  }
}

interface Holding {
  address: string;
  currency: string;
}

/** One network against the chain `sender` reads, its hot wallet at `hotAddress`. */
export async function reconcileNetwork(db: Db, network: string, sender: ChainSender, hotAddress: string, options: ReconcileOptions): Promise<ReconciledAsset[]> {
  const nativeSymbol = findNetwork(network)!.nativeSymbol;
  // Where each asset may sit: the hot wallet, addresses deposits reached, addresses that sent
  // (their fees in the native coin), addresses the hot wallet sent gas to.
  const held = await db.$queryRaw<Holding[]>`
    SELECT DISTINCT to_address AS address, currency FROM chain_transfers WHERE network = ${network}
    UNION SELECT DISTINCT from_address, currency FROM outgoing_transfers WHERE network = ${network}
    UNION SELECT DISTINCT from_address, ${nativeSymbol} FROM outgoing_transfers WHERE network = ${network}
    UNION SELECT DISTINCT to_address, currency FROM outgoing_transfers WHERE network = ${network} AND kind = 'gas'`;
  const custody = new Set([hotAddress, ...held.map((row) => row.address)]);
  const ledger = await db.$queryRaw<{ asset: string; balance: string }[]>`
    SELECT asset, (-balance)::text AS balance FROM ledger_accounts WHERE owner = ${PLATFORM} AND bucket = 'chain' AND asset LIKE ${`%:${network}`}`;
  const inFlight = await db.outgoingTransfer.findMany({
    where: { network, status: { in: [...IN_FLIGHT_OUTGOING_STATUSES] } },
    select: { currency: true, toAddress: true, amountMinor: true, feeMinor: true },
  });
  const unbooked = await db.$queryRaw<{ currency: string; inBlocks: string; pending: string }[]>`
    SELECT currency,
           COALESCE(SUM(amount_minor) FILTER (WHERE block_height IS NOT NULL), 0)::text AS "inBlocks",
           COALESCE(SUM(amount_minor) FILTER (WHERE block_height IS NULL), 0)::text AS pending
    FROM chain_transfers
    WHERE network = ${network} AND (status = 'seen' OR (status = 'confirmed' AND credits = 0)) GROUP BY currency`;

  const assets = listSettlementAssets().filter((asset) => asset.network === network);
  const rows: ReconciledAsset[] = [];
  for (const asset of assets) {
    const addresses = [...new Set([hotAddress, ...held.filter((row) => row.currency === asset.symbol).map((row) => row.address)])];
    const ledgerMinor = BigInt(ledger.find((row) => row.asset === assetKey(asset.symbol, network))?.balance ?? "0");
    let inFlightOut = 0n;
    let inFlightFees = 0n;
    for (const transfer of inFlight) {
      if (transfer.currency === asset.symbol && !custody.has(transfer.toAddress)) inFlightOut += BigInt(transfer.amountMinor.toFixed());
      if (asset.symbol === nativeSymbol && transfer.feeMinor !== null) inFlightFees += BigInt(transfer.feeMinor.toFixed());
    }
    const unbookedRow = unbooked.find((row) => row.currency === asset.symbol);
    const unbookedIn = BigInt(unbookedRow?.inBlocks ?? "0");
    const pendingIn = BigInt(unbookedRow?.pending ?? "0");
    let chain: bigint | null = null;
    let note = "";
    try {
      chain = await sumBalances(sender, addresses, asset.symbol, options.timeoutMs);
    } catch (error) {
      note = `a balance could not be read: ${error instanceof Error ? error.message.split("\n")[0].slice(0, 160) : String(error)}`;
    }
    const payouts = await checkPaidPayouts(db, network, asset.symbol, sender, options);
    const dead = await checkDeadTransfers(db, network, asset.symbol, sender, options);
    if (payouts.unchecked > 0) note = [note, `${payouts.unchecked} paid payouts could not be looked up`].filter(Boolean).join("; ");
    if (dead.unchecked > 0) note = [note, `${dead.unchecked} dead transfers could not be looked up`].filter(Boolean).join("; ");
    // Nothing here, nothing booked, nothing moving: not worth a row.
    const isIdle = [chain, ledgerMinor, inFlightOut, inFlightFees, unbookedIn, pendingIn].every((amount) => amount === 0n);
    if (isIdle && payouts.unproven.length === 0 && payouts.unchecked === 0 && dead.landed.length === 0 && dead.unchecked === 0) continue;
    const low = ledgerMinor + unbookedIn - inFlightOut - inFlightFees;
    const high = ledgerMinor + unbookedIn + pendingIn;
    rows.push({
      network,
      currency: asset.symbol,
      addresses: addresses.length,
      chain,
      ledger: ledgerMinor,
      inFlightOut,
      inFlightFees,
      unbookedIn,
      pendingIn,
      shortfall: chain !== null && chain < low ? low - chain : 0n,
      surplus: chain !== null && chain > high ? chain - high : 0n,
      unprovenPayouts: payouts.unproven,
      landedDeadTransfers: dead.landed,
      uncheckedTransactions: payouts.unchecked + dead.unchecked,
      note,
    });
  }
  return rows;
}

/** Reads balances a few at a time; the first failure fails the sum (a partial sum would look like a shortfall). */
async function sumBalances(sender: ChainSender, addresses: string[], currency: string, timeoutMs: number): Promise<bigint> {
  let total = 0n;
  for (let start = 0; start < addresses.length; start += 8) {
    const balances = await Promise.all(addresses.slice(start, start + 8).map((address) => sender.getBalance(address, currency, { timeoutMs })));
    for (const balance of balances) total += balance;
  }
  return total;
}

/**
 * Payouts of this asset booked as paid within the window that the chain does not prove: their
 * transaction is not confirmed, or — where the family reads deliveries (`readDelivered`) — it
 * did not deliver the payout's amount to its recipient.
 */
async function checkPaidPayouts(db: Db, network: string, currency: string, sender: ChainSender, options: ReconcileOptions): Promise<{ unproven: string[]; unchecked: number }> {
  const since = new Date(options.now.getTime() - options.payoutDays * 86_400_000);
  const paid = await db.$queryRaw<{ id: string; txid: string; fromAddress: string; consumes: string | null; toAddress: string; amount: string }[]>`
    SELECT p.id::text AS id, t.txid, t.from_address AS "fromAddress", t.consumes, t.to_address AS "toAddress", t.amount_minor::text AS amount
    FROM payouts p JOIN outgoing_transfers t ON t.reference = 'payout:' || p.id::text || ':send:' || p.attempt::text
    WHERE p.network = ${network} AND p.currency = ${currency} AND p.status = 'confirmed' AND p.updated_at >= ${since}
    ORDER BY p.updated_at DESC`;
  const unproven: string[] = [];
  let unchecked = 0;
  for (let start = 0; start < paid.length; start += 8) {
    const states = await Promise.all(
      paid.slice(start, start + 8).map(async (payout) => {
        const sent = { fromAddress: payout.fromAddress, consumes: payout.consumes ? (JSON.parse(payout.consumes) as ConsumedResources) : {} };
        try {
          const { state } = await sender.getTransaction(payout.txid, sent);
          if (state !== "confirmed" || !sender.readDelivered) return state;
          const delivered = await sender.readDelivered(payout.txid, sent, { toAddress: payout.toAddress, currency });
          return delivered === BigInt(payout.amount) ? state : "misdelivered";
        } catch {
          return "unread" as const;
        }
      }),
    );
    states.forEach((state, index) => {
      if (state === "unread") unchecked++;
      else if (state !== "confirmed") unproven.push(paid[start + index].id);
    });
  }
  return { unproven, unchecked };
}

/**
 * Transfers of this asset booked as dead within the window that a node took (broadcast at least
 * once) and the chain nevertheless shows confirmed — the signing recorded, or one it superseded.
 * A transfer is declared dead only on chain facts, so any found here is a fault to investigate:
 * its purpose was sent again, or its reserve went back, while its coins left.
 */
async function checkDeadTransfers(db: Db, network: string, currency: string, sender: ChainSender, options: ReconcileOptions): Promise<{ landed: string[]; unchecked: number }> {
  const since = new Date(options.now.getTime() - options.payoutDays * 86_400_000);
  const dead = await db.outgoingTransfer.findMany({
    where: { network, currency, status: { in: ["failed", "replaced"] }, txid: { not: null }, broadcasts: { gt: 0 }, updatedAt: { gte: since } },
    select: { reference: true, txid: true, fromAddress: true, consumes: true },
    orderBy: { updatedAt: "desc" },
  });
  const landed: string[] = [];
  let unchecked = 0;
  for (let start = 0; start < dead.length; start += 8) {
    const states = await Promise.all(
      dead.slice(start, start + 8).map(async (transfer) => {
        const sent = { fromAddress: transfer.fromAddress, consumes: transfer.consumes ? (JSON.parse(transfer.consumes) as ConsumedResources) : {} };
        try {
          return (await sender.getTransaction(transfer.txid!, sent)).state;
        } catch {
          return "unread" as const;
        }
      }),
    );
    states.forEach((state, index) => {
      if (state === "unread") unchecked++;
      else if (state === "confirmed") landed.push(dead[start + index].reference);
    });
  }
  return { landed, unchecked };
}

/**
 * Keeps each asset's latest result for /metrics and `wallets status`; assets of the networks
 * reconciled that no longer produce a row (nothing held, nothing moving) are cleared.
 */
export async function recordReconciliation(tx: Tx, rows: readonly ReconciledAsset[], networks: readonly string[], checkedAt: Date): Promise<void> {
  await tx.chainReconciliation.deleteMany({ where: { network: { in: [...networks] } } });
  await tx.chainReconciliation.createMany({
    data: rows.map((row) => ({
      network: row.network,
      currency: row.currency,
      checkedAt,
      chainMinor: row.chain === null ? null : row.chain.toString(),
      ledgerMinor: row.ledger.toString(),
      shortfallMinor: row.shortfall.toString(),
      surplusMinor: row.surplus.toString(),
      unprovenPayouts: row.unprovenPayouts.length,
      landedDeadTransfers: row.landedDeadTransfers.length,
      isDrift: hasDrift(row),
      note: row.note,
    })),
  });
}
