import { listSettlementAssets, type SettlementAsset } from "@/lib/catalogue";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf, getChainSender } from "@/lib/chains/registry";
import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { assetKey } from "@/lib/ledger/postings";

/** A hot wallet's balance of one asset, in minor units. */
export interface HotWalletBalance {
  network: string;
  /** The ledger's asset key, `USDT:ethereum`. */
  asset: string;
  balanceMinor: bigint;
}

export interface HotWalletSource {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">;
}

/** The assets whose hot wallet balance a scrape reads: every catalogue asset of a network a chain serves (a sandbox chain, or a verified node). */
export function listBalanceAssets(source: Pick<HotWalletSource, "db" | "config">): SettlementAsset[] {
  return listSettlementAssets().filter((asset) => getChainSender(source.db, source.config, asset.network) !== null);
}

/**
 * The hot wallet's balance of one asset, as its chain's sender reads it: one attempt, answered
 * within `timeoutMs` (a scrape's answer is only worth having now; the next scrape asks again).
 */
export async function readHotWalletBalance(source: HotWalletSource, asset: Pick<SettlementAsset, "symbol" | "network">, timeoutMs: number): Promise<HotWalletBalance> {
  // Asked anew on every load: the node may have been verified (or refused) since.
  const sender = getChainSender(source.db, source.config, asset.network);
  if (!sender) throw new Error(`no chain serves ${asset.network}`);
  const keys = await loadKeyMaterial(source.db, source.secretBox);
  const address = hotWalletAddress(keys, asset.network, addressChainOf(source.config, asset.network));
  const balanceMinor = await sender.getBalance(address, asset.symbol, { timeoutMs });
  return { network: asset.network, asset: assetKey(asset.symbol, asset.network), balanceMinor };
}
