import type { AppDeps } from "@/lib/deps/app-deps";
import { findNetwork, listSettlementAssets } from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";
import { formatAmount } from "@/lib/domain/money/amount";
import { isAppError } from "@/lib/errors";
import { listBalances } from "@/lib/services/balances/list-balances";
import { listServiceEntries } from "@/lib/services/catalogue/list-service-entries";
import { sendsMemo } from "@/lib/services/money-out/payout-destination";

/** A coin on a network a cabinet form may offer. */
export interface AssetChoice {
  currency: string;
  network: string;
  networkName: string;
  /** On-chain decimals of the asset on that network. */
  decimals: number;
  /** Whether transfers on the network carry a memo (TON). */
  hasMemo: boolean;
  /** Payouts: the payout fee of /v1/payout/services, in the asset; null where no rate answered. */
  payoutFee: string | null;
  /** Payouts: what the merchant may spend now (`available`), "0" for an asset never held. */
  available: string;
}

/**
 * The assets this service receives (`payment`: the networks it serves) or pays out (`payout`:
 * those /v1/payout/services calls available, with their fee) now, in catalogue order. Without
 * rates a payout network's availability alone decides and no fee is known.
 */
export async function listAssetChoices(deps: Pick<AppDeps, "db" | "config" | "rates">, merchantId: string, side: "payment" | "payout"): Promise<AssetChoice[]> {
  let entries: Awaited<ReturnType<typeof listServiceEntries>> | null = null;
  if (side === "payout") {
    try {
      entries = await listServiceEntries(deps, "payout");
    } catch (error) {
      if (!isAppError(error)) throw error;
    }
  }
  const balances = side === "payout" ? await listBalances(deps.db, merchantId) : [];
  const isServed = networkAvailability(deps.config);
  const choices: AssetChoice[] = [];
  for (const asset of listSettlementAssets()) {
    const entry = entries?.find((candidate) => candidate.currency === asset.symbol && candidate.network === asset.network);
    const isAvailable = entry ? entry.is_available : side === "payment" ? isServed(asset.network).deposit : isServed(asset.network).payout;
    if (!isAvailable) continue;
    const network = findNetwork(asset.network);
    const balance = balances.find((candidate) => candidate.currency === asset.symbol && candidate.network === asset.network);
    choices.push({
      currency: asset.symbol,
      network: asset.network,
      networkName: network?.displayName ?? asset.network,
      decimals: asset.decimals,
      hasMemo: sendsMemo(asset.network),
      payoutFee: side === "payout" && entry ? entry.commission.fee_amount : null,
      available: formatAmount(balance?.available ?? 0n, asset.decimals),
    });
  }
  return choices;
}
