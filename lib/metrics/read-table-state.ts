import type { Db } from "@/lib/db/client";
import { findSettlementAsset, listNetworks } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { IN_FLIGHT_OUTGOING_STATUSES } from "@/lib/domain/outgoing/transition";
import { isFinalPayoutStatus, PAYOUT_STATUSES } from "@/lib/domain/payout/transition";
import { assetKey, parseAssetKey, PLATFORM } from "@/lib/ledger/postings";

/** What waits in the service's tables, read at scrape time by a handful of aggregate queries. */
export interface TableState {
  webhookQueue: {
    /** Pending deliveries (due now or waiting for a retry). */
    depth: number;
    /** Pending deliveries whose attempt is due now. */
    due: number;
    /** Age of the oldest pending delivery, in seconds; 0 when none waits. */
    oldestAgeSeconds: number;
  };
  /** Payouts not yet final, by network, kind and status. */
  payoutQueue: { network: string; kind: string; status: string; count: number }[];
  /** Sweeps (and the gas for them) not yet final, by network, kind and status. */
  sweepQueue: { network: string; kind: string; status: string; count: number }[];
  /** Batches not completed, by kind and status. */
  batchesInProgress: { kind: string; status: string; count: number }[];
  /** Per ledger asset (`USDT:ethereum`), in whole units of the asset; `coldStorage` is what was moved to the cold address. */
  ledger: { asset: string; liabilities: number; chainHoldings: number; coldStorage: number }[];
  /** Transfers on their way that were replaced with a higher fee after waiting unmined, by network and kind. */
  replacedInFlight: { network: string; kind: string; count: number }[];
  /** Transfers signed and not final yet (the chain may still hold them back), by network and kind: how many, and when the oldest was planned. */
  unminedInFlight: { network: string; kind: string; count: number; oldest: Date }[];
  /** Payouts whose transfer waits because the hot wallet cannot cover it yet, per asset: how many and how much (whole units). */
  payoutsAwaitingFunds: { network: string; asset: string; count: number; amount: number }[];
  /** Transfers of the hot wallet's excess to cold storage, by network, asset and status (final ones too). */
  coldTransfers: { network: string; asset: string; status: string; count: number }[];
  /** The latest check of each limited hot wallet: its maximum and what it held above it (whole units). */
  hotWalletLimits: { network: string; asset: string; max: number; excess: number; checkedAt: Date }[];
  /** The latest reconciliation of each asset against its chain (amounts in whole units). */
  reconciliations: { network: string; asset: string; isDrift: boolean; shortfall: number; surplus: number; unprovenPayouts: number; landedDeadTransfers: number; checkedAt: Date }[];
}

/** Restricts merchant-owned rows to these merchants (isolated tests); null reads everything. */
export type MerchantScope = readonly string[] | null;

const WAITING_PAYOUT_STATUSES = PAYOUT_STATUSES.filter((status) => !isFinalPayoutStatus(status));
const WAITING_SWEEP_STATUSES = ["planned", ...IN_FLIGHT_OUTGOING_STATUSES];
// Naming every catalogue network lets PostgreSQL walk the (network, status) indexes instead of
// reading whole tables whose final rows grow without bound.
const NETWORK_IDS = listNetworks().map((network) => network.id);

/** Reads the table-derived gauges: a few aggregate queries, run side by side. */
export async function readTableState(db: Db, now: Date, scope: MerchantScope): Promise<TableState> {
  const only = scope ? [...scope] : null;
  const [webhooks, payouts, sweeps, batches, ledger, replacedInFlight, unminedInFlight, awaitingFunds, reconciliations, coldTransfers, limitChecks] = await Promise.all([
    db.$queryRaw<{ depth: number; due: number; oldest: Date | null }[]>`
      SELECT COUNT(*)::int AS depth, (COUNT(*) FILTER (WHERE next_attempt_at <= ${now}))::int AS due, MIN(created_at) AS oldest
      FROM webhook_deliveries
      WHERE status = 'pending' AND (${only}::uuid[] IS NULL OR merchant_id = ANY(${only}::uuid[]))`,
    db.$queryRaw<{ network: string; kind: string; status: string; count: number }[]>`
      SELECT network, kind, status, COUNT(*)::int AS count FROM payouts
      WHERE network = ANY(${NETWORK_IDS}::text[]) AND status = ANY(${WAITING_PAYOUT_STATUSES}::text[])
        AND (${only}::uuid[] IS NULL OR merchant_id = ANY(${only}::uuid[]))
      GROUP BY 1, 2, 3`,
    // Sweeps belong to no merchant: a scoped read has none.
    only
      ? Promise.resolve([])
      : db.$queryRaw<{ network: string; kind: string; status: string; count: number }[]>`
      SELECT network, kind, status, COUNT(*)::int AS count FROM outgoing_transfers
      WHERE network = ANY(${NETWORK_IDS}::text[]) AND status = ANY(${WAITING_SWEEP_STATUSES}::text[]) AND kind IN ('sweep', 'gas')
      GROUP BY 1, 2, 3`,
    db.$queryRaw<{ kind: string; status: string; count: number }[]>`
      SELECT kind, status, COUNT(*)::int AS count FROM batches
      WHERE status IN ('pending', 'processing') AND (${only}::uuid[] IS NULL OR merchant_id = ANY(${only}::uuid[]))
      GROUP BY 1, 2`,
    // What merchants are owed is every merchant bucket (debt counts against it); what the service
    // holds on chains is the platform's chain account turned around (receipts make it negative).
    // One pass over the accounts (one row per owner, asset and bucket), not over the postings.
    db.$queryRaw<{ asset: string; owed: string; chain: string; cold: string }[]>`
      SELECT asset,
             COALESCE(SUM(balance) FILTER (WHERE owner <> ${PLATFORM}), 0)::text AS owed,
             COALESCE(-SUM(balance) FILTER (WHERE owner = ${PLATFORM} AND bucket = 'chain'), 0)::text AS chain,
             COALESCE(-SUM(balance) FILTER (WHERE owner = ${PLATFORM} AND bucket = 'cold'), 0)::text AS cold
      FROM ledger_accounts
      WHERE ${only}::text[] IS NULL OR owner = ANY(${only}::text[])
      GROUP BY asset`,
    // The service's own transfers belong to no merchant: a scoped read has none.
    only
      ? Promise.resolve([])
      : db.$queryRaw<{ network: string; kind: string; count: number }[]>`
      SELECT network, kind, COUNT(*)::int AS count FROM outgoing_transfers
      WHERE network = ANY(${NETWORK_IDS}::text[]) AND status = ANY(${[...IN_FLIGHT_OUTGOING_STATUSES]}::text[]) AND replacements > 0
      GROUP BY 1, 2`,
    only
      ? Promise.resolve([])
      : db.$queryRaw<{ network: string; kind: string; count: number; oldest: Date }[]>`
      SELECT network, kind, COUNT(*)::int AS count, MIN(created_at) AS oldest FROM outgoing_transfers
      WHERE network = ANY(${NETWORK_IDS}::text[]) AND status = ANY(${[...IN_FLIGHT_OUTGOING_STATUSES]}::text[])
      GROUP BY 1, 2`,
    // Transfers from the hot wallet belong to no merchant: a scoped read has none.
    only
      ? Promise.resolve([])
      : db.$queryRaw<{ network: string; currency: string; count: number; amount: string }[]>`
      SELECT network, currency, COUNT(*)::int AS count, SUM(amount_minor)::text AS amount FROM outgoing_transfers
      WHERE network = ANY(${NETWORK_IDS}::text[]) AND status = 'planned' AND kind = 'payout' AND is_short_of_funds
      GROUP BY 1, 2`,
    // Reconciliations are of the whole service's custody: a scoped read has none.
    only ? Promise.resolve([]) : db.chainReconciliation.findMany(),
    // Moves to cold storage belong to no merchant: a scoped read has none. Few rows: one per move.
    only
      ? Promise.resolve([])
      : db.$queryRaw<{ network: string; currency: string; status: string; count: number }[]>`
      SELECT network, currency, status, COUNT(*)::int AS count FROM outgoing_transfers
      WHERE network = ANY(${NETWORK_IDS}::text[]) AND kind = 'cold'
      GROUP BY 1, 2, 3`,
    only ? Promise.resolve([]) : db.hotWalletLimitCheck.findMany(),
  ]);
  const webhookRow = webhooks[0];
  return {
    webhookQueue: {
      depth: webhookRow?.depth ?? 0,
      due: webhookRow?.due ?? 0,
      oldestAgeSeconds: webhookRow?.oldest ? Math.max(0, (now.getTime() - webhookRow.oldest.getTime()) / 1000) : 0,
    },
    payoutQueue: payouts,
    sweepQueue: sweeps,
    batchesInProgress: batches,
    ledger: ledger.map((row) => ({
      asset: row.asset,
      liabilities: toWholeUnits(row.asset, BigInt(row.owed)),
      chainHoldings: toWholeUnits(row.asset, BigInt(row.chain)),
      coldStorage: toWholeUnits(row.asset, BigInt(row.cold)),
    })),
    replacedInFlight,
    unminedInFlight,
    payoutsAwaitingFunds: awaitingFunds.map((row) => {
      const asset = assetKey(row.currency, row.network);
      return { network: row.network, asset, count: row.count, amount: toWholeUnits(asset, BigInt(row.amount)) };
    }),
    coldTransfers: coldTransfers.map((row) => ({ network: row.network, asset: assetKey(row.currency, row.network), status: row.status, count: row.count })),
    hotWalletLimits: limitChecks.map((row) => {
      const asset = assetKey(row.currency, row.network);
      return { network: row.network, asset, max: toWholeUnits(asset, BigInt(row.maxMinor.toFixed())), excess: toWholeUnits(asset, BigInt(row.excessMinor.toFixed())), checkedAt: row.checkedAt };
    }),
    reconciliations: reconciliations.map((row) => {
      const asset = assetKey(row.currency, row.network);
      return {
        network: row.network,
        asset,
        isDrift: row.isDrift,
        shortfall: toWholeUnits(asset, BigInt(row.shortfallMinor.toFixed())),
        surplus: toWholeUnits(asset, BigInt(row.surplusMinor.toFixed())),
        unprovenPayouts: row.unprovenPayouts,
        landedDeadTransfers: row.landedDeadTransfers,
        checkedAt: row.checkedAt,
      };
    }),
  };
}

/**
 * Minor units of a ledger asset as a number of whole units: gauges are floating point, so the
 * figure is for watching (exact amounts come from the ledger). An asset the catalogue does not
 * know any more is shown in minor units.
 */
export function toWholeUnits(asset: string, minor: bigint): number {
  const { symbol, network } = parseAssetKey(asset);
  const decimals = findSettlementAsset(symbol, network)?.decimals ?? 0;
  return Number(formatAmount(minor, decimals));
}
