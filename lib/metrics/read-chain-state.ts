import { listNetworks } from "@/lib/catalogue";
import { getChainAdapter } from "@/lib/chains/registry";
import type { ChainTip } from "@/lib/chains/types";
import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { createCachedValue, type CachedValue } from "./cached-value";

/** One network's watcher against its chain, as a scrape sees it. */
export interface WatchedNetworkState {
  network: string;
  /** Whether the node (or sandbox chain) told its tip within the deadline. */
  isNodeUp: boolean;
  /** The chain's tip; absent when the node did not answer. */
  tipHeight?: number;
  /** The last height the watcher has read up to; absent before its first pass. */
  scannedHeight?: number;
  /** When the watcher last moved its cursor (its last successful pass). */
  lastScanAt?: Date;
}

export interface ChainStateReader {
  read(): Promise<WatchedNetworkState[]>;
}

export interface ChainStateOptions {
  /** How long a tip and the cursors are reused, in milliseconds. */
  maxAgeMs: number;
  /** How long a scrape waits for a node's tip. */
  chainTimeoutMs: number;
  /** How long a scrape waits for the cursors. */
  databaseTimeoutMs: number;
  now(): number;
}

/**
 * Watcher lag at scrape time: each served network's tip, asked of its node (or sandbox chain)
 * with a deadline and cached, against the cursor its watcher stored (`chain_cursors`). A network
 * whose node is configured but not usable is reported down.
 */
export function createChainStateReader(source: { db: Db; config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints"> }, options: ChainStateOptions): ChainStateReader {
  const { db, config } = source;
  const cursors = createCachedValue(() => db.chainCursor.findMany({ select: { network: true, height: true, updatedAt: true } }), {
    maxAgeMs: options.maxAgeMs,
    timeoutMs: options.databaseTimeoutMs,
    now: options.now,
    shouldKeepStale: false,
    onError: (error) => log.warn("metrics: watcher cursors not read", { error }),
  });
  const tips = new Map<string, CachedValue<ChainTip>>();
  const tipOf = (network: string): CachedValue<ChainTip> => {
    let tip = tips.get(network);
    if (!tip) {
      tip = createCachedValue(
        async () => {
          // Asked anew on every load: the node may have been verified (or refused) since.
          const adapter = getChainAdapter(db, config, network);
          if (!adapter) throw new Error("no chain serves the network");
          return adapter.getTip();
        },
        {
          maxAgeMs: options.maxAgeMs,
          timeoutMs: options.chainTimeoutMs,
          now: options.now,
          // A tip that cannot be read now is unknown: an old one would understate the lag.
          shouldKeepStale: false,
          onError: (error) => log.debug("metrics: chain tip not read", { network, error }),
        },
      );
      tips.set(network, tip);
    }
    return tip;
  };

  return {
    async read() {
      const watched = listNetworks().filter((network) => config.rpcEndpoints[network.id] !== undefined || getChainAdapter(db, config, network.id) !== null);
      const [cursorRows, tipValues] = await Promise.all([cursors.read(), Promise.all(watched.map((network) => tipOf(network.id).read()))]);
      const cursorOf = new Map((cursorRows ?? []).map((row) => [row.network, row]));
      return watched.map((network, index): WatchedNetworkState => {
        const tip = tipValues[index];
        const cursor = cursorOf.get(network.id);
        return {
          network: network.id,
          isNodeUp: tip !== undefined,
          ...(tip ? { tipHeight: tip.height } : {}),
          ...(cursor ? { scannedHeight: cursor.height, lastScanAt: cursor.updatedAt } : {}),
        };
      });
    },
  };
}
