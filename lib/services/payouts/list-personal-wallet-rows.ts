import type { AppDeps } from "@/lib/deps/app-deps";
import { findNetwork, findSettlementAsset } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { listBalances } from "@/lib/services/balances/list-balances";
import { listPersonalWallets } from "./personal-wallet";

/** A registered personal wallet with what the balance holds in its asset. */
export interface PersonalWalletRow {
  currency: string;
  network: string;
  networkName: string;
  address: string;
  label: string;
  /** When transfers to it may start (registration plus the payout freeze). */
  usableFrom: string;
  isUsable: boolean;
  decimals: number;
  /** What transfers may spend now (`available`), a decimal string in the asset's units. */
  available: string;
}

export async function listPersonalWalletRows(deps: Pick<AppDeps, "db" | "config" | "now">, merchantId: string): Promise<PersonalWalletRow[]> {
  const [wallets, balances] = await Promise.all([listPersonalWallets(deps, merchantId), listBalances(deps.db, merchantId)]);
  const now = deps.now();
  return wallets.map((wallet) => {
    const decimals = findSettlementAsset(wallet.currency, wallet.network)?.decimals ?? 0;
    const balance = balances.find((candidate) => candidate.currency === wallet.currency && candidate.network === wallet.network);
    return {
      currency: wallet.currency,
      network: wallet.network,
      networkName: findNetwork(wallet.network)?.displayName ?? wallet.network,
      address: wallet.address,
      label: wallet.label,
      usableFrom: wallet.usable_from,
      isUsable: new Date(wallet.usable_from) <= now,
      decimals,
      available: formatAmount(balance?.available ?? 0n, decimals),
    };
  });
}
