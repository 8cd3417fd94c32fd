import { Address } from "@ton/core";
import { listSettlementAssets } from "@/lib/catalogue";

export const TON_NETWORK = "ton";
export const TON_SYMBOL = "TON";

/**
 * The jettons of the catalogue on TON as symbol → jetton master, with per-symbol overrides (a
 * master deployed in a local sandbox). Overrides for symbols the catalogue does not list are
 * ignored: only catalogue assets are reported or paid.
 */
export function resolveTonJettons(overrides: Readonly<Record<string, string>> = {}): ReadonlyMap<string, Address> {
  const jettons = new Map<string, Address>();
  for (const asset of listSettlementAssets()) {
    if (asset.network !== TON_NETWORK || asset.kind !== "token" || !asset.contract) continue;
    jettons.set(asset.symbol, Address.parse(overrides[asset.symbol] ?? asset.contract));
  }
  return jettons;
}

/**
 * "Block height" of TON in this adapter: the `now` of a transaction, i.e. the unix time of the
 * block that holds it. TON has no single block sequence across shards, and the HTTP API does not
 * say which masterchain block committed a transaction; block time is monotonic per account and
 * comparable across accounts. Reorganisations do not happen once a block is in the masterchain
 * (networks.md §4), and the API only serves such blocks, so the "hash" of a height is a stable
 * label, not a block hash.
 */
export function tonBlockLabel(height: number): string {
  return `utime:${height}`;
}
