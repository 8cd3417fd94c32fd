import type { AppDeps } from "@/lib/deps/app-deps";
import { findNetwork, listSettlementAssets } from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";

/** A coin on a network of the catalogue, as a settings form offers it. */
export interface AssetOption {
  currency: string;
  network: string;
  networkName: string;
  decimals: number;
  /** Whether this service watches the network for deposits now. */
  canReceive: boolean;
  /** Whether this service can send on the network now. */
  canSend: boolean;
}

/** Every settlement asset of the catalogue, in catalogue order, with what this service does on its network now. */
export function listAssetOptions(config: AppDeps["config"]): AssetOption[] {
  const isServed = networkAvailability(config);
  return listSettlementAssets().map((asset) => ({
    currency: asset.symbol,
    network: asset.network,
    networkName: findNetwork(asset.network)?.displayName ?? asset.network,
    decimals: asset.decimals,
    canReceive: isServed(asset.network).deposit,
    canSend: isServed(asset.network).payout,
  }));
}
