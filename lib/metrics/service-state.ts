import type { SettlementAsset } from "@/lib/catalogue";
import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { assetKey } from "@/lib/ledger/postings";
import { log } from "@/lib/log";
import { createCachedValue, type CachedValue } from "./cached-value";
import { createChainStateReader, type WatchedNetworkState } from "./read-chain-state";
import { listBalanceAssets, readHotWalletBalance, type HotWalletBalance } from "./read-hot-wallet-balance";
import { readLedgerAudit, type LedgerAuditState } from "./read-ledger-audit";
import { readTableState, type TableState } from "./read-table-state";

/** Where the scrape-time gauges read the service's state. */
export interface MetricsSource {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">;
  now(): Date;
  /** Restricts merchant-owned rows (queues, batches, liabilities) to these merchants: isolated tests. */
  onlyMerchantIds?: readonly string[];
}

export interface StateReadOptions {
  /** How long table-derived values, cursors and tips are reused: scrapes by several Prometheus replicas cost one read. */
  cacheSeconds: number;
  /** How long hot wallet balances are reused (one chain read per asset of every served network). */
  balanceCacheSeconds: number;
  /** How often the ledger audit runs for its gauges (it reads every posting). */
  auditIntervalSeconds: number;
  /** How long a scrape waits for the database, for one node, and for a due audit (which then finishes in the background). */
  databaseTimeoutMs: number;
  chainTimeoutMs: number;
  auditWaitMs: number;
}

export const DEFAULT_STATE_READ_OPTIONS: StateReadOptions = {
  cacheSeconds: 5,
  balanceCacheSeconds: 30,
  auditIntervalSeconds: 300,
  databaseTimeoutMs: 5_000,
  chainTimeoutMs: 2_000,
  auditWaitMs: 3_000,
};

/** The parts of the state a scrape reads; each is loaded, cached and timed out on its own, so one slow part hides nothing else. */
export interface ServiceStateReader {
  /** Unknown (undefined) when the database did not answer in time. */
  tables(): Promise<TableState | undefined>;
  chains(): Promise<WatchedNetworkState[]>;
  hotWallets(): Promise<HotWalletBalance[]>;
  /** The last finished audit; undefined until the first one finishes. */
  ledgerAudit(): Promise<LedgerAuditState | undefined>;
}

/** Builds the reader of a source; `onFailure` is told which part could not be read. */
export function createServiceStateReader(source: MetricsSource, options: StateReadOptions, onFailure: (part: string) => void = () => {}): ServiceStateReader {
  const now = () => source.now().getTime();
  const failed = (part: string) => (error: unknown) => {
    onFailure(part);
    log.warn("metrics: part of the state not read", { part, error });
  };
  const tables = createCachedValue(() => readTableState(source.db, source.now(), source.onlyMerchantIds ?? null), {
    maxAgeMs: options.cacheSeconds * 1000,
    timeoutMs: options.databaseTimeoutMs,
    now,
    shouldKeepStale: false,
    onError: failed("tables"),
  });
  const chains = createChainStateReader(source, {
    maxAgeMs: options.cacheSeconds * 1000,
    chainTimeoutMs: options.chainTimeoutMs,
    databaseTimeoutMs: options.databaseTimeoutMs,
    now,
  });
  // Per asset: a token a node cannot answer for (a mainnet contract on a testnet node) hides
  // nothing else of its network.
  const balances = new Map<string, CachedValue<HotWalletBalance>>();
  const balanceOf = (asset: SettlementAsset) => {
    const key = assetKey(asset.symbol, asset.network);
    let cached = balances.get(key);
    if (!cached) {
      cached = createCachedValue(() => readHotWalletBalance(source, asset, options.chainTimeoutMs), {
        maxAgeMs: options.balanceCacheSeconds * 1000,
        timeoutMs: options.chainTimeoutMs,
        now,
        shouldKeepStale: false,
        onError: failed("hot_wallets"),
      });
      balances.set(key, cached);
    }
    return cached;
  };
  const audit = createCachedValue(() => readLedgerAudit(source.db, source.now), {
    maxAgeMs: options.auditIntervalSeconds * 1000,
    timeoutMs: options.auditWaitMs,
    now,
    // The audit is a periodic figure: the last one stands until the next finishes.
    shouldKeepStale: true,
    onError: failed("ledger_audit"),
  });
  return {
    tables: () => tables.read(),
    chains: () => chains.read(),
    async hotWallets() {
      const found = await Promise.all(listBalanceAssets(source).map((asset) => balanceOf(asset).read()));
      return found.filter((balance) => balance !== undefined);
    },
    ledgerAudit: () => audit.read(),
  };
}
