import type { GatewayConfig } from "@/lib/config/env";
import type { ChainReconciliation, HotWalletLimitCheck } from "@/generated/prisma/client";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { findNetwork, listSettlementAssets, type NetworkId } from "@/lib/catalogue";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { resolveNetworkStatus, type NetworkSource } from "@/lib/chains/network-sources";
import { addressChainOf, getChainSender } from "@/lib/chains/registry";
import { assetKey, PLATFORM } from "@/lib/ledger/postings";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { formatAmount } from "@/lib/domain/money/amount";

/** One asset on one network: what the hot wallet holds against what the books owe. Amounts are decimal strings in the asset's units. */
export interface WalletStatusRow {
  network: string;
  currency: string;
  source: NetworkSource;
  hot_wallet_address: string | null;
  /** Null when the chain could not be read (see `note`). */
  hot_wallet_balance: string | null;
  /** What merchants are owed: every merchant bucket (incoming, maturing, available, held), less their debts. */
  owed: string;
  /** The service's own money in the books: fees taken, less network fees paid, and its side of conversions. */
  platform: string;
  /** What the books say was moved from the hot wallet to the cold address (HOT_WALLET_MAX_*), in all. */
  cold_storage: string;
  /** What the books say the service holds on chain, on every address it controls (owed + platform − cold_storage). */
  ledger_on_chain: string;
  /** hot_wallet_balance − owed: below zero, the hot wallet alone cannot pay every merchant (deposits not yet swept count elsewhere). */
  difference: string | null;
  /** The asset's latest reconciliation against its chain (`ledger reconcile`, the ledger.reconcile job); null before the first. */
  reconciliation: { checked_at: string; drift: boolean; shortfall: string; surplus: string; unproven_payouts: number; landed_dead_transfers: number } | null;
  /**
   * The asset's hot wallet limit as last checked (`wallets to-cold`, the wallet.to-cold job): the
   * maximum, what the hot wallet held above it beyond payouts' reserves, and the transfer to cold
   * storage on its way; null for an asset without a limit.
   */
  limit: { max: string; checked_at: string | null; excess: string; cold_transfer: { reference: string; status: string; amount: string } | null; note: string } | null;
  note: string;
}

/** Settles within `ms` or rejects, so that one silent node cannot hold the whole report. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A chain read's failure in one line: node libraries explain at length (viem's `shortMessage` is its first line). */
function describeReadFailure(error: unknown): string {
  const text = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  const line = text.split("\n")[0];
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** Asks the configured real nodes what chain they are (address formats, refusal in sandbox mode), within a deadline. */
export async function verifyConfiguredNodes(db: Db, config: GatewayConfig, timeoutMs: number): Promise<void> {
  if (!Object.values(config.rpcEndpoints).some(Boolean)) return;
  await withTimeout(verifyChains(config, db), timeoutMs, "checking the configured nodes").catch(() => undefined);
}

function reconciliationOf(row: ChainReconciliation | undefined, format: (minor: bigint) => string): WalletStatusRow["reconciliation"] {
  if (!row) return null;
  return {
    checked_at: row.checkedAt.toISOString(),
    drift: row.isDrift,
    shortfall: format(BigInt(row.shortfallMinor.toFixed())),
    surplus: format(BigInt(row.surplusMinor.toFixed())),
    unproven_payouts: row.unprovenPayouts,
    landed_dead_transfers: row.landedDeadTransfers,
  };
}

function limitOf(
  limit: GatewayConfig["hotWalletLimits"][number] | undefined,
  check: HotWalletLimitCheck | undefined,
  onItsWay: { reference: string; status: string; amountMinor: { toFixed(): string } } | undefined,
  format: (minor: bigint) => string,
): WalletStatusRow["limit"] {
  if (!limit) return null;
  // A check of an earlier maximum says nothing of this one.
  const isCurrent = check !== undefined && BigInt(check.maxMinor.toFixed()) === limit.maxMinor;
  return {
    max: format(limit.maxMinor),
    checked_at: isCurrent ? check.checkedAt.toISOString() : null,
    excess: isCurrent ? format(BigInt(check.excessMinor.toFixed())) : "0",
    cold_transfer: onItsWay ? { reference: onItsWay.reference, status: onItsWay.status, amount: format(BigInt(onItsWay.amountMinor.toFixed())) } : null,
    note: isCurrent ? check.note : "",
  };
}

interface LedgerTotals {
  owed: bigint;
  platform: bigint;
  cold: bigint;
  onChain: bigint;
}

async function readLedgerTotals(db: Db): Promise<Map<string, LedgerTotals>> {
  const rows = await db.$queryRaw<{ asset: string; owed: string; platform: string; cold: string; chain: string }[]>`
    SELECT asset,
           COALESCE(SUM(balance) FILTER (WHERE owner <> ${PLATFORM}), 0)::text AS owed,
           COALESCE(SUM(balance) FILTER (WHERE owner = ${PLATFORM} AND bucket NOT IN ('chain', 'cold')), 0)::text AS platform,
           COALESCE(SUM(balance) FILTER (WHERE owner = ${PLATFORM} AND bucket = 'cold'), 0)::text AS cold,
           COALESCE(SUM(balance) FILTER (WHERE owner = ${PLATFORM} AND bucket = 'chain'), 0)::text AS chain
    FROM ledger_accounts GROUP BY asset`;
  // The platform's chain and cold accounts are custody: money received (or moved to cold storage) makes them negative.
  return new Map(rows.map((row) => [row.asset, { owed: BigInt(row.owed), platform: BigInt(row.platform), cold: -BigInt(row.cold), onChain: -BigInt(row.chain) }]));
}

export interface WalletStatusOptions {
  /** Every served asset, also those where everything is zero. */
  isAll: boolean;
  /** Deadline of each chain read, and of checking the configured nodes. */
  timeoutMs: number;
}

/**
 * Per network and asset: the hot wallet's balance as its chain's sender reads it (a sandbox chain
 * or a verified node of any family), what the ledger owes merchants, and the difference. Assets
 * the books hold on a network that no chain serves any more are listed too.
 */
export async function listWalletStatus(deps: { db: Db; config: GatewayConfig; secretBox: SecretBox }, options: WalletStatusOptions): Promise<WalletStatusRow[]> {
  const { db, config } = deps;
  await verifyConfiguredNodes(db, config, options.timeoutMs);
  const ledger = await readLedgerTotals(db);
  const reconciliations = new Map((await db.chainReconciliation.findMany()).map((row) => [assetKey(row.currency, row.network), row]));
  const limitChecks = new Map((await db.hotWalletLimitCheck.findMany()).map((row) => [assetKey(row.currency, row.network), row]));
  const coldOnTheirWay = await db.outgoingTransfer.findMany({ where: { kind: "cold", status: { in: ["planned", "signed", "broadcast", "seen"] } } });
  const keys = await loadKeyMaterial(db, deps.secretBox);

  const assets = listSettlementAssets().filter((asset) => {
    const network = findNetwork(asset.network)!;
    return resolveNetworkStatus(network, config).source !== "off" || ledger.has(assetKey(asset.symbol, asset.network));
  });
  const rows = await Promise.all(
    assets.map(async (asset): Promise<WalletStatusRow> => {
      const network = findNetwork(asset.network)!;
      const status = resolveNetworkStatus(network, config);
      const totals = ledger.get(assetKey(asset.symbol, asset.network)) ?? { owed: 0n, platform: 0n, cold: 0n, onChain: 0n };
      const format = (minor: bigint) => formatAmount(minor, asset.decimals);
      let address: string | null = null;
      let balance: bigint | null = null;
      let note = "";
      if (status.source === "off") {
        note = status.detail ?? "no chain serves this network";
      } else {
        address = hotWalletAddress(keys, network.id as NetworkId, addressChainOf(config, network.id));
        const sender = getChainSender(db, config, network.id);
        if (!sender) {
          note = `the ${network.family} chain here reads no balances`;
        } else {
          try {
            balance = await sender.getBalance(address, asset.symbol, { timeoutMs: options.timeoutMs });
          } catch (error) {
            note = describeReadFailure(error);
          }
        }
      }
      return {
        network: network.id,
        currency: asset.symbol,
        source: status.source,
        hot_wallet_address: address,
        hot_wallet_balance: balance === null ? null : format(balance),
        owed: format(totals.owed),
        platform: format(totals.platform),
        cold_storage: format(totals.cold),
        ledger_on_chain: format(totals.onChain),
        difference: balance === null ? null : format(balance - totals.owed),
        reconciliation: reconciliationOf(reconciliations.get(assetKey(asset.symbol, asset.network)), format),
        limit: limitOf(
          config.hotWalletLimits.find((limit) => limit.network === asset.network && limit.currency === asset.symbol),
          limitChecks.get(assetKey(asset.symbol, asset.network)),
          coldOnTheirWay.find((transfer) => transfer.network === asset.network && transfer.currency === asset.symbol),
          format,
        ),
        note,
      };
    }),
  );
  const isZero = (text: string | null) => text === null || text === "0";
  return rows.filter((row) => options.isAll || row.note !== "" || row.limit !== null || ![row.hot_wallet_balance, row.owed, row.platform, row.cold_storage, row.ledger_on_chain].every(isZero));
}
